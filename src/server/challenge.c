/* challenge.c — challenges and the settings that refuse them (see challenge.h). */
#include "challenge.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

cJSON *rs_challenge_mine_json(rs_server *srv, const rs_conn *c)
{
    (void)srv;
    (void)c;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddArrayToObject(o, "received");
    cJSON_AddArrayToObject(o, "sent");
    return o;
}

char *rs_challenge_mine_text(rs_server *srv, const rs_conn *c)
{
    cJSON *o = rs_challenge_mine_json(srv, c);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

bool rs_challenge_allowed(rs_server *srv, rs_conn *c)
{
    (void)srv;
    return c->refuses_challenges != 1;
}
