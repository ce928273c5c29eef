/* chat.c — a game's chat (see chat.h): the players' channel apart from the spectators', as
 * lichess keeps them (issue 49, finding 7: any guest could chat in any game, to its players),
 * a player's mutes, and the game's switch that turns its chat off. */
#include "chat.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "fields.h"

#define CHAT_MAX 300    /* bytes in one chat line */
#define CHAT_HISTORY 50 /* lines sent with a snapshot */

static const char *channel_word(bool players)
{
    return players ? "players" : "spectators";
}

static void reply_done(rs_server *srv, rs_conn *c, const cJSON *msg, const char *type,
                       const rs_table *t)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", "done");
    cJSON_AddStringToObject(m, "re", type);
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    rs_reply(srv, c, m, msg);
}

/* The switch as stored (its last line), read once per table held. */
static int switch_state(rs_server *srv, rs_table *t)
{
    if (t->chat_switch != RS_CHAT_UNREAD)
        return t->chat_switch;
    cJSON *last = rs_store_chat_json(srv->store, t->row.id, RS_CHAT_SWITCH, 1);
    const char *word =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(last, 0), "text"));
    t->chat_switch = word && strcmp(word, "off") == 0 ? RS_CHAT_OFF : RS_CHAT_ON;
    cJSON_Delete(last);
    return t->chat_switch;
}

cJSON *rs_chat_history(rs_server *srv, rs_table *t, int64_t user)
{
    switch_state(srv, t);
    const bool players = rs_table_seat_of(t, user) >= 0;
    cJSON *lines = rs_store_chat_json(srv->store, t->row.id,
                                      players ? RS_CHAT_PLAYERS : RS_CHAT_SPECTATORS, CHAT_HISTORY);
    for (int i = cJSON_GetArraySize(lines) - 1; i >= 0; i--) {
        const char *from = cJSON_GetStringValue(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(lines, i), "from"));
        if (from && rs_table_muted(t, user, from))
            cJSON_DeleteItemFromArray(lines, i);
    }
    return lines;
}

/* The line's text, checked and cleaned into line[CHAT_MAX + 1]: without the invisible
 * characters that reorder or hide text (bidi and zero-width controls). */
static bool clean_line(const cJSON *msg, char line[CHAT_MAX + 1], rs_err *e)
{
    const char *text;
    if (!rs_field_string(msg, "text", true, RS_MAX_MESSAGE, &text, e))
        return false;
    if (*text && strlen(text) <= CHAT_MAX && rs_plain_text(text) &&
        snprintf(line, CHAT_MAX + 1, "%s", text) >= 0 && rs_strip_invisible(line))
        return true;
    rs_fail(e, "bad-text", "a chat line is 1 to %d bytes of text without control characters",
            CHAT_MAX);
    return false;
}

static bool watches(const rs_conn *c, const rs_table *t)
{
    for (int i = 0; i < c->num_watching; i++)
        if (c->watching[i] == t->row.id)
            return true;
    return false;
}

/* Send a line, or the switch's notice, on to the other servers of a cluster. */
static void tell_cluster(rs_server *srv, const rs_table *t, const cJSON *m)
{
    if (!srv->shared)
        return;
    char *said = cJSON_PrintUnformatted(m);
    if (said)
        rs_cluster_note_chat(srv, t->row.id, said);
    free(said);
}

int rs_chat_handle(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    char line[CHAT_MAX + 1];
    rs_table *t = rs_cluster_table_named(srv, msg, e);
    if (!t || !clean_line(msg, line, e))
        return -1;
    const bool players = rs_table_seat_of(t, c->user) >= 0;
    if (!players && !watches(c, t))
        return rs_fail(e, "not-watching", "open game %lld before chatting in it",
                       (long long)t->row.id);
    if (switch_state(srv, t) == RS_CHAT_OFF)
        return rs_fail(e, "chat-off", "a player turned this game's chat off");
    const int64_t now = rs_server_now_ms(srv);
    if (rs_store_begin(srv->store) != RS_STORE_OK ||
        rs_store_chat_add(srv->store, t->row.id, players ? RS_CHAT_PLAYERS : RS_CHAT_SPECTATORS,
                          c->user, now, line) != RS_STORE_OK)
        return rs_fail(e, "server-error", "cannot store the line");
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", "chat");
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    cJSON_AddStringToObject(m, "channel", channel_word(players));
    cJSON_AddStringToObject(m, "from", c->name);
    cJSON_AddNumberToObject(m, "at", (double)now);
    cJSON_AddStringToObject(m, "text", line);
    char *text = cJSON_PrintUnformatted(m);
    rs_ctx ctx = rs_server_ctx(srv);
    if (text)
        rs_table_send_chat(&ctx, t, text, players, c->name);
    free(text);
    tell_cluster(srv, t, m);
    cJSON_Delete(m);
    reply_done(srv, c, msg, "chat", t);
    return 0;
}

static int seated_or_fail(const rs_table *t, const rs_conn *c, const char *what, rs_err *e)
{
    if (rs_table_seat_of(t, c->user) >= 0)
        return 0;
    return rs_fail(e, "not-seated", "only the game's players may %s", what);
}

/* {"t":"mute","game":ID,"name":NAME,"mute":bool?}: lines by NAME no longer reach (or, with
 * mute false, reach again) this player's connections in the game, their snapshots included. */
int rs_chat_mute_handle(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    const char *name;
    bool mute = true;
    rs_table *t = rs_cluster_table_named(srv, msg, e);
    if (!t || !rs_field_string(msg, "name", true, RS_NAME_MAX, &name, e) ||
        !rs_field_bool(msg, "mute", &mute, e) || seated_or_fail(t, c, "mute a chatter", e) < 0)
        return -1;
    if (strcmp(name, c->name) == 0)
        return rs_fail(e, "bad-target", "you cannot mute yourself");
    for (int i = 0; i < t->num_mutes; i++)
        if (t->mutes[i].by == c->user && strcmp(t->mutes[i].name, name) == 0) {
            if (!mute)
                t->mutes[i] = t->mutes[--t->num_mutes];
            reply_done(srv, c, msg, "mute", t);
            return 0;
        }
    if (mute && t->num_mutes == RS_MUTES_MAX)
        return rs_fail(e, "too-many", "%d chatters are muted in this game already", RS_MUTES_MAX);
    if (mute) {
        t->mutes[t->num_mutes].by = c->user;
        snprintf(t->mutes[t->num_mutes++].name, sizeof t->mutes[0].name, "%s", name);
    }
    reply_done(srv, c, msg, "mute", t);
    return 0;
}

/* {"t":"chat-switch","game":ID,"on":bool}: a player turns the game's chat (both channels) off
 * or on again; every watcher is told with the same message and `by`. */
int rs_chat_switch_handle(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    rs_table *t = rs_cluster_table_named(srv, msg, e);
    if (!t || seated_or_fail(t, c, "turn the chat off or on", e) < 0)
        return -1;
    if (!cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(msg, "on")))
        return rs_fail(e, "bad-message", "field 'on' must be true or false");
    bool on = true;
    rs_field_bool(msg, "on", &on, e);
    if (rs_store_begin(srv->store) != RS_STORE_OK ||
        rs_store_chat_add(srv->store, t->row.id, RS_CHAT_SWITCH, c->user, rs_server_now_ms(srv),
                          on ? "on" : "off") != RS_STORE_OK)
        return rs_fail(e, "server-error", "cannot store the switch");
    t->chat_switch = on ? RS_CHAT_ON : RS_CHAT_OFF;
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", "chat-switch");
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    cJSON_AddBoolToObject(m, "on", on);
    cJSON_AddStringToObject(m, "by", c->name);
    rs_ctx ctx = rs_server_ctx(srv);
    rs_table_broadcast(&ctx, t, m);
    tell_cluster(srv, t, m);
    cJSON_Delete(m);
    reply_done(srv, c, msg, "chat-switch", t);
    return 0;
}
