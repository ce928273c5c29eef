/* lobby.c — the lobby (see lobby.h): the games waiting for players and the games being
 * played, each viewer's own first, then the open games ranked so that no one creator can fill
 * the page (issue 49, finding 5), a page at a time with a cursor. */
#include "lobby.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "grow.h"
#include "table_view.h"

#define LOBBY_PAGE 50         /* games of each list in one lobby message */
#define BAND_POINTS 100       /* rating points of one band of nearness to the viewer's rating */
#define BANDS 9               /* the farthest band: 900 points off and more */
#define CREATOR_KEY 48        /* "u<id>" or a seated name */
#define CURSOR_TEXT 64        /* an open list's cursor: "ROUND.GUEST.BAND.ID" */
#define GUEST_PREFIX "guest-" /* a guest's name; registered names may not start so */

/* A game of the lobby: held here (table), or listed from another server's announcement
 * (summary; on a cluster only). */
typedef struct entry {
    int64_t id;
    const rs_table *table;
    const rs_listed *listed;
    char creator[CREATOR_KEY];
    const char *type;      /* the game's id ("castle-danger") */
    double creator_rating; /* the creator's rating for it when created (else the default) */
    int band;   /* open games: how far that rating is from the viewer's, in BAND_POINTS */
    int round;  /* open games: its place among its creator's open games, newest first */
    bool guest; /* no registered player sits in it */
    char *text; /* its public summary, printed when first needed */
} entry;

typedef struct list {
    entry *items;
    size_t n;
} list;

typedef struct lobby {
    rs_server *srv;
    list open, live;
    rs_idmap seated; /* users seated in a game held here */
    bool any_listed; /* games listed from other servers (matched by name) */
    int64_t now_us;
    const rs_conn *ranked_for; /* the viewer whose ratings the open list's bands are for */
    bool ranked;               /* the open list is ranked (for ranked_for; NULL: unrated) */
} lobby;

/* Where a page starts: after the cursor's key (none: the first page, the viewer's own first). */
typedef struct cursor {
    bool given;
    int round, guest, band;
    int64_t id;
} cursor;

static bool has_open_seat(const rs_table *t)
{
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_OPEN)
            return true;
    return false;
}

static bool is_guest_name(const char *name)
{
    return strncmp(name, GUEST_PREFIX, strlen(GUEST_PREFIX)) == 0;
}

static void describe_table(entry *x, const rs_table *t)
{
    snprintf(x->creator, sizeof x->creator, "u%" PRId64, t->row.creator);
    x->type = t->game->id;
    x->creator_rating = t->creator_rating > 0 ? t->creator_rating : RS_DEFAULT_RATING;
    x->guest = true;
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_HUMAN && t->names[s][0] && !is_guest_name(t->names[s]))
            x->guest = false;
}

/* A listed game's creator is the first person seated in it, as the summary names them. */
static void describe_listed(entry *x, const cJSON *summary)
{
    snprintf(x->creator, sizeof x->creator, "#%" PRId64, x->id);
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(summary, "type"));
    x->type = type ? type : "";
    x->creator_rating = RS_DEFAULT_RATING; /* another server's: not announced */
    x->guest = true;
    bool first = true;
    const cJSON *seat;
    cJSON_ArrayForEach (seat, cJSON_GetObjectItemCaseSensitive(summary, "seats")) {
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(seat, "kind"));
        const char *who = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(seat, "name"));
        if (!kind || !who || strcmp(kind, "human") != 0)
            continue;
        if (first)
            snprintf(x->creator, sizeof x->creator, "%s", who);
        first = false;
        if (!is_guest_name(who))
            x->guest = false;
    }
}

static bool add(list *l, size_t *cap, entry x)
{
    if (!rs_grow(&l->items, cap, l->n, sizeof x, 64))
        return false;
    l->items[l->n++] = x;
    return true;
}

static void note_seated(lobby *lb, const rs_table *t)
{
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].user_id > 0 &&
            (t->row.seat[s].kind == RS_SEAT_HUMAN || t->row.seat[s].kind == RS_SEAT_RESERVED))
            rs_idmap_put(&lb->seated, (uint64_t)t->row.seat[s].user_id, (void *)1);
}

static void gather(lobby *lb)
{
    rs_server *srv = lb->srv;
    size_t cap_open = 0, cap_live = 0;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        const rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        const bool open = t && t->row.status == RS_GAME_OPEN && has_open_seat(t);
        if (!t || (!open && t->row.status != RS_GAME_LIVE))
            continue;
        entry x = {.id = t->row.id, .table = t};
        describe_table(&x, t);
        if (add(open ? &lb->open : &lb->live, open ? &cap_open : &cap_live, x))
            note_seated(lb, t);
    }
    for (size_t i = 0; i < srv->listed.cap; i++) {
        const int64_t id = (int64_t)srv->listed.slots[i].key;
        const rs_listed *l = id ? srv->listed.slots[i].value : NULL;
        if (!l || rs_server_table(srv, id))
            continue;
        entry x = {.id = id, .listed = l};
        describe_listed(&x, l->summary);
        lb->any_listed = true;
        add(l->open ? &lb->open : &lb->live, l->open ? &cap_open : &cap_live, x);
    }
}

static int by_creator_newest(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    const int c = strcmp(x->creator, y->creator);
    if (c)
        return c;
    return x->id < y->id ? 1 : x->id > y->id ? -1 : 0;
}

/* The open games' order: every creator's newest game before anyone's second, games with a
 * registered player before guests' within a round, then those whose creator's rating is
 * nearest the viewer's (in bands of 100 points), then the newest. Twelve guests with ten
 * games each thus fill twelve places, not the page. */
static int by_rank(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->round != y->round)
        return x->round < y->round ? -1 : 1;
    if (x->guest != y->guest)
        return x->guest ? 1 : -1;
    if (x->band != y->band)
        return x->band < y->band ? -1 : 1;
    return x->id < y->id ? 1 : x->id > y->id ? -1 : 0;
}

/* The viewer's rating for a game (c NULL, or none read: the default). */
static double viewer_rating(const rs_conn *c, const char *type)
{
    for (int i = 0; c && c->rated && i < rp_num_games && i < RS_RATED_GAMES; i++)
        if (strcmp(rp_games[i]->id, type) == 0)
            return c->ratings[i];
    return RS_DEFAULT_RATING;
}

/* Rank the open list for viewer c (NULL: a viewer without ratings of their own). */
static void rank_for(lobby *lb, const rs_conn *c)
{
    if (lb->ranked && lb->ranked_for == c)
        return;
    list *o = &lb->open;
    for (size_t i = 0; i < o->n; i++) {
        entry *x = &o->items[i];
        const double off = x->creator_rating - viewer_rating(c, x->type);
        const int band = (int)((off < 0 ? -off : off) / BAND_POINTS);
        x->band = band < BANDS ? band : BANDS;
    }
    if (o->n)
        qsort(o->items, o->n, sizeof *o->items, by_rank);
    lb->ranked_for = c;
    lb->ranked = true;
}

static int by_newest(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    return x->id < y->id ? 1 : x->id > y->id ? -1 : 0;
}

static void rank(lobby *lb)
{
    list *o = &lb->open;
    if (o->n)
        qsort(o->items, o->n, sizeof *o->items, by_creator_newest);
    for (size_t i = 0; i < o->n; i++)
        o->items[i].round = i > 0 && strcmp(o->items[i].creator, o->items[i - 1].creator) == 0
                                ? o->items[i - 1].round + 1
                                : 0;
    if (lb->live.n)
        qsort(lb->live.items, lb->live.n, sizeof *lb->live.items, by_newest);
}

static void lobby_build(lobby *lb, rs_server *srv)
{
    *lb = (lobby){.srv = srv, .now_us = rs_server_now_us(srv)};
    gather(lb);
    rank(lb);
}

static void lobby_free(lobby *lb)
{
    for (int k = 0; k < 2; k++) {
        list *l = k ? &lb->live : &lb->open;
        for (size_t i = 0; i < l->n; i++)
            free(l->items[i].text);
        free(l->items);
    }
    rs_idmap_free(&lb->seated);
}

static const char *entry_text(lobby *lb, entry *x)
{
    if (x->text)
        return x->text;
    if (x->listed) {
        x->text = cJSON_PrintUnformatted(x->listed->summary);
        return x->text;
    }
    cJSON *s = rs_table_summary(x->table, lb->now_us);
    x->text = cJSON_PrintUnformatted(s);
    cJSON_Delete(s);
    return x->text;
}

/* Whether the viewer (user, name) sits in x (or has a seat reserved there). */
static bool is_own(const entry *x, int64_t user, const char *name)
{
    if (x->table) {
        for (int s = 0; s < x->table->row.seats; s++)
            if (x->table->row.seat[s].user_id == user &&
                (x->table->row.seat[s].kind == RS_SEAT_HUMAN ||
                 x->table->row.seat[s].kind == RS_SEAT_RESERVED))
                return true;
        return false;
    }
    const cJSON *seat;
    cJSON_ArrayForEach (seat, cJSON_GetObjectItemCaseSensitive(x->listed->summary, "seats")) {
        const char *who = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(seat, "name"));
        if (who && strcmp(who, name) == 0)
            return true;
    }
    return false;
}

/* Whether the viewer may have games of their own in the lobby (else they get the shared page). */
static bool may_own(const lobby *lb, int64_t user)
{
    return user > 0 && (lb->any_listed || rs_idmap_get(&lb->seated, (uint64_t)user));
}

static bool after_cursor(const entry *x, const cursor *at, bool open)
{
    if (!at->given)
        return true;
    if (!open)
        return x->id < at->id;
    if (x->round != at->round)
        return x->round > at->round;
    if ((int)x->guest != at->guest)
        return (int)x->guest > at->guest;
    if (x->band != at->band)
        return x->band > at->band;
    return x->id < at->id;
}

/* A growing string: the message is printed by pieces, each game's summary printed once for
 * every viewer. */
typedef struct text {
    char *s;
    size_t n, cap;
    bool failed;
} text;

static void put(text *t, const char *piece)
{
    const size_t len = strlen(piece);
    if (t->failed)
        return;
    if (t->n + len + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->n + len + 1)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->failed = true;
            return;
        }
        t->s = s, t->cap = cap;
    }
    memcpy(t->s + t->n, piece, len + 1);
    t->n += len;
}

static void put_cursor(text *t, const entry *last, bool open)
{
    char piece[CURSOR_TEXT + 4];
    if (open)
        snprintf(piece, sizeof piece, "\"%d.%d.%d.%" PRId64 "\"", last->round, (int)last->guest,
                 last->band, last->id);
    else
        snprintf(piece, sizeof piece, "\"%" PRId64 "\"", last->id);
    put(t, piece);
}

/* Before every game: the cursor of a first page filled by the viewer's own games alone. */
static const entry before_all = {.id = INT64_MAX};

/* One list's page into t (`"open":[...]`), and in *more the last entry given when the list
 * goes on (else NULL). The first page starts with the viewer's own games, which the other
 * pages leave out. */
static void put_page(text *t, lobby *lb, bool open, const cursor *at, int64_t user,
                     const char *name, const entry **more)
{
    list *l = open ? &lb->open : &lb->live;
    const bool owns = may_own(lb, user);
    size_t given = 0;
    const entry *last = NULL;
    *more = NULL;
    put(t, open ? "\"open\":[" : "\"live\":[");
    for (int pass = at->given ? 1 : 0; pass < 2 && !*more; pass++)
        for (size_t i = 0; i < l->n && !*more; i++) {
            entry *x = &l->items[i];
            const bool own = owns && is_own(x, user, name);
            if ((pass == 0) != own || !after_cursor(x, at, open))
                continue;
            if (given == LOBBY_PAGE) {
                *more = last ? last : &before_all;
                continue;
            }
            const char *s = entry_text(lb, x);
            put(t, given ? "," : "");
            put(t, s ? s : "null");
            given++;
            if (pass == 1)
                last = x;
        }
    put(t, "]");
}

static char *lobby_text(lobby *lb, const cursor *open_at, const cursor *live_at, int64_t user,
                        const char *name)
{
    text t = {0};
    const entry *more_open = NULL, *more_live = NULL;
    put(&t, "{\"t\":\"lobby\",");
    put_page(&t, lb, true, open_at, user, name, &more_open);
    put(&t, ",");
    put_page(&t, lb, false, live_at, user, name, &more_live);
    put(&t, ",\"more\":{\"open\":");
    if (more_open)
        put_cursor(&t, more_open, true);
    else
        put(&t, "null");
    put(&t, ",\"live\":");
    if (more_live)
        put_cursor(&t, more_live, false);
    else
        put(&t, "null");
    char tail[96];
    snprintf(tail, sizeof tail, "},\"total\":{\"open\":%zu,\"live\":%zu},\"connections\":%zu}",
             lb->open.n, lb->live.n, lb->srv->conns.count);
    put(&t, tail);
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

/* A whole number from 0 at *p ending at `stop`: *p moves past both; false when not. */
static bool take_number(const char **p, char stop, long long *out)
{
    char *end;
    if (**p < '0' || **p > '9')
        return false;
    *out = strtoll(*p, &end, 10);
    if (*end != stop || *out < 0)
        return false;
    *p = stop ? end + 1 : end;
    return true;
}

/* A cursor `more` gave: "ROUND.GUEST.BAND.ID" for the open list, "ID" for the live one. */
static bool read_cursor(const cJSON *msg, const char *key, bool open, cursor *at, rs_err *e)
{
    const char *word = NULL;
    *at = (cursor){0};
    if (!rs_field_string(msg, key, false, CURSOR_TEXT, &word, e))
        return false;
    if (!word)
        return true;
    long long round = 0, guest = 0, band = 0, id = 0;
    const char *p = word;
    const bool ok = open ? take_number(&p, '.', &round) && take_number(&p, '.', &guest) &&
                               take_number(&p, '.', &band) && take_number(&p, '\0', &id)
                         : take_number(&p, '\0', &id);
    if (!ok || round > INT32_MAX || guest > 1 || band > BANDS || id < 1) {
        rs_fail(e, "bad-message", "field '%s' must be a cursor the lobby gave in 'more'", key);
        return false;
    }
    *at = (cursor){true, (int)round, (int)guest, (int)band, (int64_t)id};
    return true;
}

/* The viewer's ratings, read at each lobby request (a push uses them as last read): the open
 * games nearest them come first in a round. */
static int read_ratings(rs_server *srv, rs_conn *c, rs_err *e)
{
    c->rated = false;
    for (int i = 0; i < rp_num_games && i < RS_RATED_GAMES; i++) {
        rs_rating_row r;
        const int rc = rs_store_rating_get(srv->store, c->user, rp_games[i]->id, &r);
        if (rc != RS_STORE_OK && rc != RS_STORE_NOTFOUND)
            return rs_fail(e, rs_store_unavailable(srv->store) ? "unavailable" : "server-error",
                           "cannot read your ratings");
        c->ratings[i] = rc == RS_STORE_OK ? r.rating : RS_DEFAULT_RATING;
        c->rated |= c->ratings[i] != RS_DEFAULT_RATING;
    }
    return 0;
}

int rs_lobby_handle(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    bool watch = true;
    cursor open_at, live_at;
    if (!rs_field_bool(msg, "watch", &watch, e) ||
        !read_cursor(msg, "open_after", true, &open_at, e) ||
        !read_cursor(msg, "live_after", false, &live_at, e))
        return -1;
    c->lobby = watch;
    if (!watch) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "t", "done");
        cJSON_AddStringToObject(m, "re", "lobby");
        rs_reply(srv, c, m, msg);
        return 0;
    }
    if (read_ratings(srv, c, e) < 0)
        return -1;
    lobby lb;
    lobby_build(&lb, srv);
    rank_for(&lb, c->rated ? c : NULL);
    char *s = lobby_text(&lb, &open_at, &live_at, c->user, c->name);
    lobby_free(&lb);
    cJSON *m = s ? cJSON_Parse(s) : NULL;
    free(s);
    if (!m)
        return rs_fail(e, "server-error", "out of memory");
    rs_reply(srv, c, m, msg);
    return 0;
}

void rs_lobby_push(rs_server *srv)
{
    lobby lb = {0};
    bool built = false; /* built for the first watcher: none, no cost */
    const cursor first = {0};
    char *shared = NULL; /* the page of everyone who sits in none of its games */
    for (size_t i = 0; i < srv->conns.cap; i++) {
        rs_conn *c = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (!c || !c->lobby)
            continue;
        if (!built)
            lobby_build(&lb, srv);
        built = true;
        rank_for(&lb, c->rated ? c : NULL);
        if (c->rated || may_own(&lb, c->user)) {
            char *own = lobby_text(&lb, &first, &first, c->user, c->name);
            if (own)
                rs_outbox_put_text(&srv->outbox, c->id, own);
            free(own);
            continue;
        }
        if (!shared) /* ranked for a viewer without ratings, as this one is */
            shared = lobby_text(&lb, &first, &first, 0, "");
        if (shared)
            rs_outbox_put_text(&srv->outbox, c->id, shared);
    }
    free(shared);
    if (built)
        lobby_free(&lb);
}
