/* idmap.c — see idmap.h. */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

static bool map_grow(rs_idmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    rs_idmap_entry *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].key)
            continue;
        size_t j = slot_of(m->slots[i].key, cap);
        while (slots[j].key)
            j = (j + 1) & (cap - 1);
        slots[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return true;
}

bool rs_idmap_put(rs_idmap *m, uint64_t key, void *value)
{
    if ((m->count + 1) * 4 > m->cap * 3 && !map_grow(m))
        return false;
    size_t i = slot_of(key, m->cap);
    while (m->slots[i].key && m->slots[i].key != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->slots[i].key)
        m->count++;
    m->slots[i].key = key;
    m->slots[i].value = value;
    return true;
}

void *rs_idmap_get(const rs_idmap *m, uint64_t key)
{
    if (!m->cap || !key)
        return NULL;
    for (size_t i = slot_of(key, m->cap); m->slots[i].key; i = (i + 1) & (m->cap - 1))
        if (m->slots[i].key == key)
            return m->slots[i].value;
    return NULL;
}

void rs_idmap_del(rs_idmap *m, uint64_t key)
{
    if (!m->cap)
        return;
    size_t i = slot_of(key, m->cap);
    while (m->slots[i].key && m->slots[i].key != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->slots[i].key)
        return;
    m->slots[i].key = 0;
    m->count--;
    /* Backward-shift the cluster after the hole so lookups never stop early. */
    for (size_t j = (i + 1) & (m->cap - 1); m->slots[j].key; j = (j + 1) & (m->cap - 1)) {
        rs_idmap_entry e = m->slots[j];
        m->slots[j].key = 0;
        m->count--;
        rs_idmap_put(m, e.key, e.value);
    }
}

void rs_idmap_free(rs_idmap *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}
