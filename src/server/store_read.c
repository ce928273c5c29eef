/* store_read.c — the read models of the HTTP API and of a game's chat (store_read.h), built here
 * once from the plain rows each backend fetches (store_backend.h), so that SQLite and
 * PostgreSQL answer in the same JSON. */
#include <cjson/cJSON.h>

#include "store_read.h"

#include "store_backend.h"

/* At most this many finished games a list. */
#define FINISHED_MAX 200

static const char *seat_kind_word(int kind)
{
    static const char *const words[] = {"open", "invite", "reserved", "ai", "human"};
    return kind >= 0 && kind <= RS_SEAT_HUMAN ? words[kind] : "?";
}

/* ---- chat ---- */

static void add_chat_line(void *ctx, const rs_chat_row *row)
{
    cJSON *line = cJSON_CreateObject();
    cJSON_AddStringToObject(line, "from", row->from);
    cJSON_AddNumberToObject(line, "at", (double)row->at_ms);
    cJSON_AddStringToObject(line, "text", row->text);
    cJSON_AddItemToArray(ctx, line);
}

cJSON *rs_store_chat_json(rs_store *st, int64_t game, rs_chat_channel channel, int limit)
{
    cJSON *lines = cJSON_CreateArray();
    st->ops->chat_rows(st, game, (int)channel, limit, add_chat_line, lines);
    return lines;
}

/* ---- finished games ---- */

static void add_seat(void *ctx, const rs_named_seat_row *row)
{
    cJSON *seat = cJSON_CreateObject();
    cJSON_AddNumberToObject(seat, "seat", row->seat);
    cJSON_AddStringToObject(seat, "kind", seat_kind_word(row->kind));
    if (row->kind == RS_SEAT_HUMAN && row->name)
        cJSON_AddStringToObject(seat, "name", row->name);
    if (row->kind == RS_SEAT_AI)
        cJSON_AddStringToObject(seat, "level", row->ai_level);
    cJSON_AddNumberToObject(seat, "score", row->score);
    cJSON_AddItemToArray(ctx, seat);
}

/* The games listed so far, and their ids for reading their seats once the list is read. */
typedef struct finished_list {
    cJSON *games;
    int64_t ids[FINISHED_MAX];
    int n;
} finished_list;

static void add_finished(void *ctx, const rs_finished_row *row)
{
    finished_list *list = ctx;
    if (list->n >= FINISHED_MAX)
        return;
    list->ids[list->n++] = row->id;
    cJSON *g = cJSON_CreateObject();
    cJSON_AddNumberToObject(g, "id", (double)row->id);
    cJSON_AddStringToObject(g, "game", row->game);
    cJSON_AddBoolToObject(g, "rated", row->rated);
    cJSON_AddNumberToObject(g, "ended_ms", (double)row->ended_ms);
    cJSON_AddStringToObject(g, "reason", row->reason);
    cJSON_AddStringToObject(g, "result", row->result);
    cJSON_AddItemToArray(list->games, g);
}

cJSON *rs_store_finished_json(rs_store *st, int64_t user, int limit, int64_t before)
{
    finished_list list = {.games = cJSON_CreateArray()};
    st->ops->finished_rows(st, user, limit > FINISHED_MAX ? FINISHED_MAX : limit, before,
                           add_finished, &list);
    /* The seats after the list: SQLite would otherwise step two statements at once. */
    for (int i = 0; i < list.n; i++) {
        cJSON *seats = cJSON_CreateArray();
        st->ops->named_seat_rows(st, list.ids[i], add_seat, seats);
        cJSON_AddItemToObject(cJSON_GetArrayItem(list.games, i), "seats", seats);
    }
    return list.games;
}

/* ---- a player's profile ---- */

static void add_rating(void *ctx, const rs_game_rating_row *row)
{
    cJSON *r = cJSON_AddObjectToObject(ctx, row->game);
    cJSON_AddNumberToObject(r, "rating", row->rating.rating);
    cJSON_AddNumberToObject(r, "rd", row->rating.rd);
    cJSON_AddNumberToObject(r, "vol", row->rating.vol);
    cJSON_AddNumberToObject(r, "games", (double)row->rating.games);
}

static void add_history(void *ctx, const rs_rating_history_row *row)
{
    cJSON *h = cJSON_CreateObject();
    cJSON_AddStringToObject(h, "game", row->game);
    cJSON_AddNumberToObject(h, "id", (double)row->game_id);
    cJSON_AddNumberToObject(h, "at_ms", (double)row->at_ms);
    cJSON_AddNumberToObject(h, "rating", row->rating);
    cJSON_AddNumberToObject(h, "rd", row->rd);
    cJSON_AddItemToArray(ctx, h);
}

static void add_vs_ai(void *ctx, const rs_vs_ai_row *row)
{
    cJSON *vs_ai = ctx;
    cJSON *per_game = cJSON_GetObjectItemCaseSensitive(vs_ai, row->game);
    if (!per_game)
        per_game = cJSON_AddObjectToObject(vs_ai, row->game);
    cJSON *r = cJSON_AddObjectToObject(per_game, row->level);
    cJSON_AddNumberToObject(r, "won", (double)row->won);
    cJSON_AddNumberToObject(r, "lost", (double)row->lost);
    cJSON_AddNumberToObject(r, "drawn", (double)row->drawn);
}

cJSON *rs_store_profile_json(rs_store *st, const rs_user *user)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "name", user->name);
    cJSON_AddBoolToObject(p, "guest", user->guest);
    cJSON_AddNumberToObject(p, "created_ms", (double)user->created_ms);
    st->ops->rating_rows(st, user->id, add_rating, cJSON_AddObjectToObject(p, "ratings"));
    st->ops->rating_history_rows(st, user->id, add_history,
                                 cJSON_AddArrayToObject(p, "rating_history"));
    st->ops->vs_ai_rows(st, user->id, add_vs_ai, cJSON_AddObjectToObject(p, "vs_ai"));
    cJSON_AddItemToObject(p, "games", rs_store_finished_json(st, user->id, 50, 0));
    return p;
}
