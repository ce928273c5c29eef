/* outbox.c — the messages of one loop iteration, kept in order until its commit (see
 * outbox.h). */
#include "outbox.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

static bool outbox_push(rs_outbox *o, rs_pending p)
{
    if (!RS_GROW(o->items, o->count, o->cap, 64))
        return false;
    o->items[o->count++] = p;
    return true;
}

void rs_outbox_put(rs_outbox *o, uint64_t conn, cJSON *msg)
{
    char *text = msg ? cJSON_PrintUnformatted(msg) : NULL;
    cJSON_Delete(msg);
    if (text && !outbox_push(o, (rs_pending){conn, text, 0}))
        free(text);
}

void rs_outbox_put_text(rs_outbox *o, uint64_t conn, const char *text)
{
    char *copy = strdup(text);
    if (copy && !outbox_push(o, (rs_pending){conn, copy, 0}))
        free(copy);
}

void rs_outbox_close(rs_outbox *o, uint64_t conn, int code)
{
    outbox_push(o, (rs_pending){conn, NULL, code});
}

void rs_outbox_clear(rs_outbox *o)
{
    for (size_t i = 0; i < o->count; i++)
        free(o->items[i].text);
    o->count = 0;
}
