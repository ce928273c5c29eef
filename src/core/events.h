/* events.h — internal: building the events games tell viewers (see events_json in game.h).
 * One helper makes the common part of every event, so the five games spell kind, seat,
 * text and reveal the same way. */
#ifndef RP_CORE_EVENTS_H
#define RP_CORE_EVENTS_H

#include <stdbool.h>

struct cJSON;

/* Append {"kind": kind, "seat": seat (only when seat >= 0), "text": printf(fmt, ...)} to the
 * array `events` and return it for more fields (NULL only when memory runs out). */
struct cJSON *rp__event(struct cJSON *events, const char *kind, int seat, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Mark an event as revealing something hidden or decided by chance ("reveal": true). */
void rp__event_reveal(struct cJSON *event);

/* Add "key": [names...] to an event: the names of cards the viewer may see. */
void rp__event_names(struct cJSON *event, const char *key, const char *const *names, int n);

#endif
