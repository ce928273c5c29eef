/* view.c — the common start of every game's view (view.h). */
#include <cjson/cJSON.h>

#include "core/view.h"

cJSON *rp__view_new(const char *game_id)
{
    cJSON *view = cJSON_CreateObject();
    if (view)
        cJSON_AddItemToObjectCS(view, "game", cJSON_CreateStringReference(game_id));
    return view;
}
