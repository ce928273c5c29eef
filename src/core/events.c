/* events.c — the common part of every event a game tells a viewer (events.h). */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/events.h"

cJSON *rp__event(cJSON *events, const char *kind, int seat, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    cJSON *event = cJSON_CreateObject();
    if (!event)
        return NULL;
    cJSON_AddStringToObject(event, "kind", kind);
    if (seat >= 0)
        cJSON_AddNumberToObject(event, "seat", seat);
    cJSON_AddStringToObject(event, "text", text);
    cJSON_AddItemToArray(events, event);
    return event;
}

void rp__event_reveal(cJSON *event)
{
    if (event && !cJSON_GetObjectItemCaseSensitive(event, "reveal"))
        cJSON_AddTrueToObject(event, "reveal");
}

void rp__event_names(cJSON *event, const char *key, const char *const *names, int n)
{
    if (!event)
        return;
    cJSON *arr = cJSON_AddArrayToObject(event, key);
    for (int i = 0; i < n && arr; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(names[i]));
}
