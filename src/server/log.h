/* log.h — one line per event on stderr, with a UTC timestamp. Log lines name games, seats,
 * plies and users, never a move's notation, a view or a card: hidden information stays out
 * of logs too. Control characters in a line (a client's Origin or path, say) are written
 * escaped, so no value can forge a line or steer a terminal. */
#ifndef RS_LOG_H
#define RS_LOG_H

#include <stdbool.h>

void rs_log_quiet(bool quiet);
void rs_log(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
