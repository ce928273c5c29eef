/* mine.c — "my games" (see mine.h): the unfinished games a user is seated in, built from the
 * games held here and, on a cluster, the lobby's games other servers hold (their announced
 * summaries), so every server answers the same list. A push is sent only when the list's
 * signature (each game's id, version and seat, the challenges, the settings) changed. */
#include "mine.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "challenge.h"
#include "fields.h"
#include "grow.h"
#include "pools.h"
#include "table_view.h"

/* A watched list is pushed at most this often: each push walks every game for each watcher. */
#define MINE_PUSH_EVERY_US 200000ll
#define NO_DEADLINE INT64_MAX

/* One game of the list, before it is sorted. */
typedef struct mine_game {
    int64_t id;
    bool your_turn;
    int64_t deadline_ms; /* NO_DEADLINE when no clock runs */
    cJSON *entry;
} mine_game;

typedef struct mine_list {
    mine_game *games;
    size_t n, cap;
    uint64_t sig; /* FNV-1a of what the list says that does not change with time alone */
} mine_list;

static void mix(uint64_t *h, int64_t value)
{
    for (int i = 0; i < 8; i++) {
        *h ^= (uint64_t)(value >> (8 * i)) & 0xffu;
        *h *= 1099511628211ull;
    }
}

static void mix_text(uint64_t *h, const char *text)
{
    for (; text && *text; text++) {
        *h ^= (uint8_t)*text;
        *h *= 1099511628211ull;
    }
}

/* The seat named `name` holds in a listed summary, or -1. */
static int listed_seat(const cJSON *summary, const char *name)
{
    const cJSON *seat;
    cJSON_ArrayForEach (seat, cJSON_GetObjectItemCaseSensitive(summary, "seats")) {
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(seat, "kind"));
        const char *who = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(seat, "name"));
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(seat, "seat");
        if (kind && who && cJSON_IsNumber(s) && strcmp(kind, "human") == 0 &&
            strcmp(who, name) == 0)
            return s->valueint;
    }
    return -1;
}

/* The wall time a listed game's running clock runs out: its time left when announced, from
 * when this server heard it. */
static int64_t listed_deadline(const rs_listed *l)
{
    const cJSON *clock = cJSON_GetObjectItemCaseSensitive(l->summary, "clock");
    const cJSON *running = cJSON_GetObjectItemCaseSensitive(clock, "running");
    if (!cJSON_IsNumber(running))
        return NO_DEADLINE;
    const cJSON *left = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(clock, "remaining_ms"),
                                           running->valueint);
    return cJSON_IsNumber(left) ? l->at_ms + (int64_t)left->valuedouble : NO_DEADLINE;
}

static int64_t held_deadline(const rs_table *t, int64_t now_us, int64_t now_ms)
{
    const int64_t d = t->row.status == RS_GAME_LIVE ? rs_clock_deadline_us(&t->clock) : NO_DEADLINE;
    return d == RS_CLOCK_NEVER ? NO_DEADLINE : now_ms + (d - now_us) / 1000;
}

static void add_game(mine_list *list, int64_t id, int64_t v, int seat, int to_move,
                     int64_t deadline_ms, cJSON *entry)
{
    mix(&list->sig, id);
    mix(&list->sig, v);
    mix(&list->sig, seat);
    if (!entry)
        return;
    if (!RS_GROW(list->games, list->n, list->cap, 8)) {
        cJSON_Delete(entry);
        return;
    }
    cJSON_AddNumberToObject(entry, "seat", seat);
    cJSON_AddBoolToObject(entry, "your_turn", to_move == seat);
    if (deadline_ms != NO_DEADLINE)
        cJSON_AddNumberToObject(entry, "deadline_ms", (double)deadline_ms);
    list->games[list->n++] = (mine_game){id, to_move == seat, deadline_ms, entry};
}

/* The games c's user is seated in, unsorted; with entries only when `entries`. */
static void collect(rs_server *srv, const rs_conn *c, bool entries, mine_list *list)
{
    const int64_t now_us = rs_server_now_us(srv), now_ms = rs_server_now_ms(srv);
    list->sig = 14695981039346656037ull;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        const rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        const int seat = t ? rs_table_seat_of(t, c->user) : -1;
        if (seat < 0 || (t->row.status != RS_GAME_OPEN && t->row.status != RS_GAME_LIVE))
            continue;
        add_game(list, t->row.id, t->row.v, seat, rs_table_to_move(t),
                 held_deadline(t, now_us, now_ms), entries ? rs_table_summary(t, now_us) : NULL);
    }
    for (size_t i = 0; i < srv->listed.cap; i++) {
        const int64_t id = (int64_t)srv->listed.slots[i].key;
        const rs_listed *l = id ? srv->listed.slots[i].value : NULL;
        const int seat = l && !rs_server_table(srv, id) ? listed_seat(l->summary, c->name) : -1;
        if (seat < 0)
            continue;
        const cJSON *to_move = cJSON_GetObjectItemCaseSensitive(l->summary, "to_move");
        add_game(list, id, l->v, seat, cJSON_IsNumber(to_move) ? to_move->valueint : -1,
                 listed_deadline(l), entries ? cJSON_Duplicate(l->summary, true) : NULL);
    }
}

/* Waiting for you first, then by deadline (soonest first), then newest first. */
static int by_urgency(const void *a, const void *b)
{
    const mine_game *x = a, *y = b;
    if (x->your_turn != y->your_turn)
        return x->your_turn ? -1 : 1;
    if (x->deadline_ms != y->deadline_ms)
        return x->deadline_ms < y->deadline_ms ? -1 : 1;
    return x->id < y->id ? 1 : x->id > y->id ? -1 : 0;
}

/* The games' signature with the challenges and the settings mixed in. */
static uint64_t with_the_rest(rs_server *srv, rs_conn *c, uint64_t sig)
{
    char *challenges = rs_challenge_mine_text(srv, c);
    mix_text(&sig, challenges);
    free(challenges);
    cJSON *seeks = rs_pools_seeks_json(srv, c->user);
    char *seeks_text = cJSON_PrintUnformatted(seeks);
    mix_text(&sig, seeks_text);
    free(seeks_text);
    cJSON_Delete(seeks);
    mix(&sig, rs_challenge_allowed(srv, c));
    return sig;
}

/* The signature of c's list as it stands (what a push compares). */
static uint64_t signature(rs_server *srv, rs_conn *c)
{
    mine_list list = {0};
    collect(srv, c, false, &list);
    return with_the_rest(srv, c, list.sig);
}

static cJSON *mine_json(rs_server *srv, rs_conn *c)
{
    mine_list list = {0};
    collect(srv, c, true, &list);
    c->mine_sig = with_the_rest(srv, c, list.sig);
    if (list.n > 1)
        qsort(list.games, list.n, sizeof *list.games, by_urgency);
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", "mine");
    cJSON *games = cJSON_AddArrayToObject(m, "games");
    int waiting = 0;
    for (size_t i = 0; i < list.n; i++) {
        waiting += list.games[i].your_turn;
        cJSON_AddItemToArray(games, list.games[i].entry);
    }
    free(list.games);
    cJSON_AddNumberToObject(m, "waiting", waiting);
    cJSON_AddItemToObject(m, "challenges", rs_challenge_mine_json(srv, c));
    cJSON_AddItemToObject(m, "seeks", rs_pools_seeks_json(srv, c->user));
    cJSON *settings = cJSON_AddObjectToObject(m, "settings");
    cJSON_AddBoolToObject(settings, "challenges", rs_challenge_allowed(srv, c));
    return m;
}

int rs_mine_handle(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    bool watch = true;
    if (!rs_field_bool(msg, "watch", &watch, e))
        return -1;
    c->mine = watch;
    if (!watch) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "t", "done");
        cJSON_AddStringToObject(m, "re", "mine");
        rs_reply(srv, c, m, msg);
        return 0;
    }
    rs_reply(srv, c, mine_json(srv, c), msg);
    return 0;
}

void rs_mine_push(rs_server *srv)
{
    const int64_t now = rs_server_now_us(srv);
    if (!srv->mine_dirty || now < srv->next_mine_push_us)
        return;
    srv->mine_dirty = false;
    srv->next_mine_push_us = now + MINE_PUSH_EVERY_US;
    for (size_t i = 0; i < srv->conns.cap; i++) {
        rs_conn *c = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (c && c->mine && c->user && signature(srv, c) != c->mine_sig)
            rs_outbox_put(&srv->outbox, c->id, mine_json(srv, c));
    }
}
