/* store_rows.c — the helpers on rows both databases share (store_rows.h): how a name is
 * keyed, how a game's remaining times are written and read back. */
#include "store_rows.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

void rs_store_name_key(const char *name, char out[RS_NAME_MAX + 1])
{
    size_t i = 0;
    for (; name[i] && i < RS_NAME_MAX; i++)
        out[i] = (char)tolower((unsigned char)name[i]);
    out[i] = '\0';
}

void rs_store_remaining_text(const rs_game_row *row, char *out, size_t size)
{
    int n = 0;
    out[0] = '\0';
    for (int i = 0; i < row->seats && i < RP_MAX_PLAYERS && (size_t)n < size; i++)
        n += snprintf(out + n, size - (size_t)n, "%s%lld", i ? " " : "",
                      (long long)row->remaining_ms[i]);
}

void rs_store_remaining_parse(const char *text, rs_game_row *row)
{
    for (int i = 0; i < RP_MAX_PLAYERS && *text; i++) {
        char *end;
        row->remaining_ms[i] = strtoll(text, &end, 10);
        if (end == text)
            break;
        text = end;
    }
}

void rs_store_linked_text(const rs_seek_row *row, char *out, size_t size)
{
    rs_store_numbers_text(row->linked, row->num_linked, out, size);
}

void rs_store_linked_parse(const char *text, rs_seek_row *row)
{
    row->num_linked = rs_store_numbers_parse(text, row->linked, RS_SEEK_LINKS);
}

void rs_store_numbers_text(const int64_t *values, int n, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used < size; i++)
        used +=
            (size_t)snprintf(out + used, size - used, i ? " %lld" : "%lld", (long long)values[i]);
}

int rs_store_numbers_parse(const char *text, int64_t *values, int max)
{
    int n = 0;
    while (text && *text && n < max) {
        char *end;
        const long long v = strtoll(text, &end, 10);
        if (end == text)
            break;
        values[n++] = v;
        text = end;
    }
    return n;
}
