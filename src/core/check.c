/* check.c — the panic behind rp_assert and the debug state check (check.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/check.h"

void rp__panic(const char *file, int line, const char *fmt, ...)
{
    fprintf(stderr, "%s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

void rp__debug_state_ok(const rp_game *game, const void *st, const char *file, int line)
{
    if (!game->state_ok)
        return;
    rp_error err = {{0}};
    if (game->state_ok(st, &err) == RP_OK)
        return;
    char text[RP_STATE_TEXT];
    if (game->state_to_text(st, text, sizeof text) < 0)
        text[0] = '\0';
    rp__panic(file, line, "%s: broken state after apply: %s\n%s", game->id, err.msg, text);
}
