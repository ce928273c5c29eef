/* view.c — Danger at the Walls as each viewer sees it (DW-13): actions as data, the view,
 * the events of an action told as sentences, the names of the cards a viewer may not learn,
 * the terminal render and the legal moves in a few words for its prompt. The fields:
 * docs/games/danger-at-the-walls.md. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "core/check.h"
#include "core/events.h"
#include "core/notation.h"
#include "core/text.h"
#include "core/view.h"
#include "games/danger-at-the-walls/internal.h"

/* ------------------------------------------------------------------------------------------ */
/* Views                                                                                      */

/* Keys are constant strings and names references to constant strings: a view costs one node
 * per value and no copies. */
#define ADD(o, key, item) cJSON_AddItemToObjectCS((o), (key), (item))
#define NAME(text) cJSON_CreateStringReference(text)

/* The counted cards by name, in face order. */
static cJSON *counts_json(const uint8_t *counts)
{
    cJSON *a = cJSON_CreateArray();
    for (int f = 0; f < DW_FACES; f++)
        for (int i = 0; i < counts[f]; i++)
            cJSON_AddItemToArray(a, NAME(dw_card_name[f]));
    return a;
}

/* {"blue": b, "red": r}. */
static cJSON *by_seat(int blue, int red)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "blue", cJSON_CreateNumber(blue));
    ADD(o, "red", cJSON_CreateNumber(red));
    return o;
}

/* The leaders on a side, as counts per face. */
static void side_leaders(const dw_side *sd, uint8_t *counts)
{
    memset(counts, 0, DW_FACES);
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        counts[f] = (sd->leaders & LB(f)) != 0;
}

/* One side of a wall: Archers, the Cannon stack bottom first (the last one shows), leaders
 * and the strength DW-7 gives it. */
static cJSON *side_json(const dw_state *s, int w, int seat)
{
    const dw_side side = dw_side_at(s, w, seat), *sd = &side;
    uint8_t counts[DW_FACES];
    cJSON *o = cJSON_CreateObject();
    dw_side_archers(s, w, seat, counts);
    ADD(o, "archers", counts_json(counts));
    cJSON *cannons = cJSON_CreateArray();
    for (int i = 0; i < sd->ncannon; i++)
        cJSON_AddItemToArray(cannons, NAME(dw_card_name[sd->cannon[i]]));
    ADD(o, "cannons", cannons);
    side_leaders(sd, counts);
    ADD(o, "leaders", counts_json(counts));
    ADD(o, "strength", cJSON_CreateNumber(dw_strength(s, w, seat)));
    return o;
}

/* One wall: its number, who controls it, its Flag and both sides. */
static cJSON *wall_json(const dw_state *s, int w)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "wall", cJSON_CreateNumber(w + 1));
    ADD(o, "control", NAME(dw_seat_word[s->control[w]]));
    if (s->flag[w]) {
        cJSON *flag = cJSON_CreateObject();
        ADD(flag, "card", NAME(dw_card_name[DW_FLAG]));
        ADD(flag, "by", NAME(dw_seat_word[s->flag[w] - 1]));
        ADD(o, "flag", flag);
    } else {
        ADD(o, "flag", cJSON_CreateNull());
    }
    ADD(o, "blue", side_json(s, w, DW_BLUE));
    ADD(o, "red", side_json(s, w, DW_RED));
    return o;
}

/* The Spy in play, or null: its wall, the Blue card it covers (a Cannon also by its place in
 * the stack) and whether a newer Cannon buries it (DW-P2). */
static cJSON *spy_json(const dw_state *s)
{
    if (!s->spy_wall)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    ADD(o, "card", NAME(dw_card_name[DW_SPY]));
    ADD(o, "wall", cJSON_CreateNumber(s->spy_wall));
    ADD(o, "covers", NAME(dw_card_name[dw_spied_face(s)]));
    if (s->spy_on == DW_SPY_ON_CANNON)
        ADD(o, "cannon", cJSON_CreateNumber(s->spy_depth));
    ADD(o, "buried", cJSON_CreateBool(!dw_spy_visible(s)));
    return o;
}

/* DW-13: the board, removed piles, deck sizes and hand sizes are public; a seat also sees
 * its own hand and its own personal deck's contents (not their order). */
cJSON *dw_view_json(const void *st, int viewer)
{
    const dw_state *s = st;
    const int me = dw_viewer_seat(viewer);
    cJSON *o = rp__view_new(DW_ID);
    ADD(o, "seat", me < 0 ? cJSON_CreateNull() : cJSON_CreateNumber(me));
    ADD(o, "turn", cJSON_CreateNumber(s->turn));
    ADD(o, "to_act", s->over ? cJSON_CreateNull() : cJSON_CreateNumber(s->to_move));
    ADD(o, "phase", NAME(dw_phase_name[s->phase]));
    ADD(o, "last_turn", cJSON_CreateBool(s->last_turn != DW_LAST_NO));
    ADD(o, "end_trigger",
        s->last_turn == DW_LAST_FLAGS        ? NAME("third-flag")
        : s->last_turn == DW_LAST_EMPTY_HAND ? NAME("empty-hand")
                                             : cJSON_CreateNull());
    ADD(o, "over", cJSON_CreateBool(s->over));
    ADD(o, "winner", s->over ? cJSON_CreateNumber(dw_winner(s)) : cJSON_CreateNull());
    ADD(o, "walls_controlled", by_seat(dw_walls_of(s, DW_BLUE), dw_walls_of(s, DW_RED)));
    ADD(o, "flags_on_board", cJSON_CreateNumber(s->flags_on_board));
    cJSON *walls = cJSON_CreateArray();
    for (int w = 0; w < DW_WALLS; w++)
        cJSON_AddItemToArray(walls, wall_json(s, w));
    ADD(o, "walls", walls);
    ADD(o, "spy", spy_json(s));
    if (me >= 0) {
        uint8_t own[DW_FACES] = {0};
        for (int i = 0; i < s->personal_n[me]; i++)
            own[s->personal[me][i]]++;
        ADD(o, "hand", counts_json(s->hand[me]));
        ADD(o, "personal_deck", counts_json(own));
    } else {
        ADD(o, "hand", cJSON_CreateNull());
        ADD(o, "personal_deck", cJSON_CreateNull());
    }
    ADD(o, "hand_sizes", by_seat(s->hand_n[DW_BLUE], s->hand_n[DW_RED]));
    ADD(o, "personal_deck_sizes", by_seat(s->personal_n[DW_BLUE], s->personal_n[DW_RED]));
    ADD(o, "main_deck_size", cJSON_CreateNumber(s->main_n));
    cJSON *removed = cJSON_CreateObject();
    ADD(removed, "blue", counts_json(s->removed[DW_BLUE]));
    ADD(removed, "red", counts_json(s->removed[DW_RED]));
    ADD(o, "removed", removed);
    return o;
}

/* ------------------------------------------------------------------------------------------ */
/* Actions as data                                                                            */

static const char *const KIND_NAME[] = {"archers", "cannon",   "flag",    "attack", "leader",
                                        "spy",     "assassin", "discard", "draw"};
static const char *const DECK_NAME[2] = {"personal", "main"};

/* {"kind", "cards" (from the hand), "wall" (1-5), "target"} or {"kind": "draw", "from"}. */
cJSON *dw_action_json(const void *st, rp_action action)
{
    const dw_state *s = st;
    const dw_move m = dw_decode(action);
    cJSON *o = cJSON_CreateObject();
    ADD(o, "kind", NAME(KIND_NAME[m.kind]));
    if (m.kind == K_DRAW) {
        ADD(o, "from", NAME(DECK_NAME[m.target]));
        return o;
    }
    ADD(o, "cards", counts_json(m.cards));
    if (m.wall >= 0)
        ADD(o, "wall", cJSON_CreateNumber(m.wall + 1));
    if (m.kind == K_ATTACK)
        ADD(o, "target", NAME(dw_attack_target[m.target]));
    if (m.kind == K_SPY || m.kind == K_ASSASSIN) {
        const int f = dw_target_face(s, &m);
        ADD(o, "target", NAME(f < 0 ? "cannon" : dw_card_name[f]));
    }
    return o;
}

/* ------------------------------------------------------------------------------------------ */
/* Events                                                                                     */

/* How the strengths at wall w went from b to a, to end a sentence. */
static const char *strength_text(char *buf, size_t size, const dw_state *b, const dw_state *a,
                                 int w)
{
    const int b0 = dw_strength(b, w, DW_BLUE), b1 = dw_strength(a, w, DW_BLUE);
    const int r0 = dw_strength(b, w, DW_RED), r1 = dw_strength(a, w, DW_RED);
    if (b0 != b1 && r0 != r1)
        snprintf(buf, size, "strengths there Blue %d to %d, Red %d to %d", b0, b1, r0, r1);
    else if (b0 != b1)
        snprintf(buf, size, "Blue's strength there %s from %d to %d (Red %d)",
                 b1 > b0 ? "rises" : "falls", b0, b1, r1);
    else if (r0 != r1)
        snprintf(buf, size, "Red's strength there %s from %d to %d (Blue %d)",
                 r1 > r0 ? "rises" : "falls", r0, r1, b1);
    else
        snprintf(buf, size, "strengths there stay Blue %d, Red %d", b1, r1);
    return buf;
}

/* The sentence of a play (DW-3) or a discard (DW-4), by kind. */
static cJSON *play_sentence(cJSON *events, const dw_state *b, const dw_state *a, const dw_move *m,
                            const uint8_t *lost)
{
    const int p = b->to_move, q = p ^ 1, w = m->wall;
    const char *me = dw_seat_names[p], *them = dw_seat_names[q];
    char cards[160], change[96], lost_text[160], extra[96] = "";
    dw_cards_text(cards, sizeof cards, m->cards);
    dw_cards_text(lost_text, sizeof lost_text, lost);
    if (w >= 0)
        strength_text(change, sizeof change, b, a, w);
    switch (m->kind) {
    case K_CANNON: {
        const dw_side side = dw_side_at(b, w, p), *sd = &side;
        if (sd->ncannon) /* DW-5 */
            snprintf(extra, sizeof extra, ", on top of %s",
                     dw_card_name[sd->cannon[sd->ncannon - 1]]);
        return rp__event(events, "cannon", p, "%s plays %s at wall %d%s: %s.", me, cards, w + 1,
                         extra, change);
    }
    case K_FLAG: /* DW-2 */
        return rp__event(events, "flag", p,
                         "%s plays flag on wall %d: %s holds the wall for "
                         "the rest of the game (Flags on the board: %d).",
                         me, w + 1, dw_seat_names[a->control[w]], a->flags_on_board);
    case K_ATTACK: /* DW-6: a spied Archer cannot be moved */
        if (m->target == 1 && a->spy_wall == w + 1 && a->spy_on <= DW_A3)
            snprintf(extra, sizeof extra, " (the spied %s cannot be moved and stays)",
                     dw_card_name[a->spy_on]);
        return rp__event(events, "attack", p,
                         "%s plays attack at wall %d, removing %s's %s%s: "
                         "%s.",
                         me, w + 1, them, lost_text, extra, change);
    case K_SPY: /* DW-8 */
        return rp__event(events, "spy", p,
                         "%s plays spy on %s's %s at wall %d, which no longer "
                         "counts: %s.",
                         me, them, dw_card_name[dw_spied_face(a)], w + 1, change);
    case K_ASSASSIN: /* DW-9: removing the Spy frees its card */
        if (m->target == 7)
            snprintf(extra, sizeof extra, ", which frees %s's %s", me,
                     dw_card_name[dw_spied_face(b)]);
        return rp__event(events, "assassin", p,
                         "%s plays assassin at wall %d, removing %s's "
                         "%s%s: %s.",
                         me, w + 1, them, lost_text, extra, change);
    case K_DISCARD: /* DW-4 */
        return rp__event(events, "discard", p,
                         "%s has no card that can be played and "
                         "discards %s (DW-4).",
                         me, cards);
    default: /* Archers and leaders */
        return rp__event(events, KIND_NAME[m->kind], p, "%s plays %s at wall %d: %s.", me, cards,
                         w + 1, change);
    }
}

/* The play itself: its sentence, the cards from the hand, the wall with its strengths before
 * and after, the target and what left play. It shows a card from a hidden hand: a reveal. */
static cJSON *play_event(cJSON *events, const dw_state *b, const dw_state *a, const dw_move *m)
{
    const int q = b->to_move ^ 1, w = m->wall;
    uint8_t lost[DW_FACES]; /* the opponent's cards sent to the removed pile */
    for (int f = 0; f < DW_FACES; f++)
        lost[f] = (uint8_t)(a->removed[q][f] - b->removed[q][f]);
    cJSON *e = play_sentence(events, b, a, m, lost);
    if (!e)
        return NULL;
    ADD(e, "cards", counts_json(m->cards));
    if (w >= 0) {
        ADD(e, "wall", cJSON_CreateNumber(w + 1));
        ADD(e, "strength_before", by_seat(dw_strength(b, w, DW_BLUE), dw_strength(b, w, DW_RED)));
        ADD(e, "strength", by_seat(dw_strength(a, w, DW_BLUE), dw_strength(a, w, DW_RED)));
    }
    if (m->kind == K_ATTACK)
        ADD(e, "target", NAME(dw_attack_target[m->target]));
    if (m->kind == K_SPY || m->kind == K_ASSASSIN)
        ADD(e, "target", NAME(dw_card_name[dw_target_face(b, m)]));
    if (m->kind == K_ATTACK || m->kind == K_ASSASSIN)
        ADD(e, "removed", counts_json(lost));
    if (m->kind == K_FLAG)
        ADD(e, "control", NAME(dw_seat_word[a->control[w]]));
    rp__event_reveal(e);
    return e;
}

/* DW-10: every wall that changed hands. Returns false when memory runs out. */
static bool control_events(cJSON *events, const dw_state *b, const dw_state *a)
{
    for (int w = 0; w < DW_WALLS; w++) {
        if (b->control[w] == a->control[w])
            continue;
        const int c = a->control[w];
        cJSON *e =
            rp__event(events, "control", c, "%s takes wall %d from %s, %d to %d.", dw_seat_names[c],
                      w + 1, dw_seat_names[c ^ 1], dw_strength(a, w, c), dw_strength(a, w, c ^ 1));
        if (!e)
            return false;
        ADD(e, "wall", cJSON_CreateNumber(w + 1));
        ADD(e, "from", NAME(dw_seat_word[c ^ 1]));
    }
    return true;
}

/* DW-11 after a play: how many cards the player will draw and from where, or that both decks
 * are empty. */
static cJSON *refill_event(cJSON *events, const dw_state *a, int p)
{
    cJSON *e;
    int count = 0;
    if (a->phase == DW_PHASE_REFILL && a->to_move == p) {
        const int own = a->personal_n[p], main = a->main_n, want = DW_HAND - a->hand_n[p];
        count = want < own + main ? want : own + main;
        char from[96];
        if (own && main)
            snprintf(from, sizeof from,
                     "their personal deck (%d left) or the main deck (%d "
                     "left)",
                     own, main);
        else
            snprintf(from, sizeof from, "%s (%d left)",
                     own ? "their personal deck" : "the main deck", own ? own : main);
        e = rp__event(events, "refill", p, "%s refills: %d card%s to draw from %s.",
                      dw_seat_names[p], count, count == 1 ? "" : "s", from);
    } else {
        e = rp__event(events, "refill", p, "%s cannot refill: both decks are empty.",
                      dw_seat_names[p]);
    }
    if (e)
        ADD(e, "count", cJSON_CreateNumber(count));
    return e;
}

/* DW-11, one card: named to the drawer only; everyone else hears "a card". */
static cJSON *draw_event(cJSON *events, const dw_state *b, rp_action action, int viewer)
{
    const int p = b->to_move;
    const bool own = action == DW_ACT_DRAW_PERSONAL;
    const int f = own ? b->personal[p][b->personal_n[p] - 1] : b->main[b->main_n - 1];
    const char *from = own ? "their personal deck" : "the main deck";
    cJSON *e;
    if (viewer == p) {
        e = rp__event(events, "draw", p, "%s draws %s from %s.", dw_seat_names[p], dw_card_name[f],
                      from);
        if (e) {
            cJSON *cards = cJSON_CreateArray();
            cJSON_AddItemToArray(cards, NAME(dw_card_name[f]));
            ADD(e, "cards", cards);
        }
    } else {
        e = rp__event(events, "draw", p, "%s draws a card from %s.", dw_seat_names[p], from);
        if (e) {
            cJSON *cards = cJSON_CreateArray();
            cJSON_AddItemToArray(cards, cJSON_CreateNull());
            ADD(e, "cards", cards);
        }
    }
    if (e) {
        ADD(e, "from", NAME(DECK_NAME[!own]));
        rp__event_reveal(e);
    }
    return e;
}

/* Why the game is ending (DW-12), after "...controls 3 walls to 2 ". */
static const char *end_reason(char *buf, size_t size, const dw_state *a, int trigger)
{
    if (a->last_turn == DW_LAST_FLAGS)
        snprintf(buf, size, "after the third Flag");
    else
        snprintf(buf, size, "after %s ran out of cards", dw_seat_names[trigger]);
    return buf;
}

static const char *const END_TRIGGER[3] = {"", "third-flag", "empty-hand"};

/* When the turn ends: the last-turn announcement (DW-12), then the game's end or the next
 * turn. Returns false when memory runs out. */
static bool turn_events(cJSON *events, const dw_state *b, const dw_state *a)
{
    if (!a->over && a->to_move == b->to_move)
        return true; /* the refill goes on */
    const int p = b->to_move;
    cJSON *e;
    if (!b->last_turn && a->last_turn) {
        char why[96];
        if (a->last_turn == DW_LAST_FLAGS)
            snprintf(why, sizeof why, "The third Flag is on the board");
        else
            snprintf(why, sizeof why, "%s has no cards left and both decks are empty",
                     dw_seat_names[p]);
        e = rp__event(events, "last-turn", p ^ 1,
                      a->over ? "%s: %s has no card for a last "
                                "turn, so the game ends (DW-12)."
                              : "%s: %s takes one last turn (DW-12).",
                      why, dw_seat_names[p ^ 1]);
        if (!e)
            return false;
        ADD(e, "reason", NAME(END_TRIGGER[a->last_turn]));
    }
    if (a->over) {
        const int win = dw_winner(a), n = dw_walls_of(a, win);
        char reason[64];
        e = rp__event(events, "game-over", win, "%s controls %d walls to %d %s: %s wins.",
                      dw_seat_names[win], n, DW_WALLS - n,
                      end_reason(reason, sizeof reason, a, a->to_move ^ 1), dw_seat_names[win]);
        if (!e)
            return false;
        ADD(e, "winner", NAME(dw_seat_word[win]));
        ADD(e, "walls", by_seat(dw_walls_of(a, DW_BLUE), dw_walls_of(a, DW_RED)));
        ADD(e, "reason", NAME(END_TRIGGER[a->last_turn]));
        return true;
    }
    e = rp__event(events, "turn", a->to_move, "Turn %d: %s to play%s.", a->turn,
                  dw_seat_names[a->to_move], a->last_turn ? ", the last turn" : "");
    if (!e)
        return false;
    ADD(e, "turn", cJSON_CreateNumber(a->turn));
    return true;
}

/* What the action did, told to viewer: diffing the state before and after is enough here
 * (every effect of a play is on one wall, the removed piles and the turn), so apply stays as
 * it is on the hot path. */
cJSON *dw_events_json(const void *before, rp_action action, int viewer)
{
    const dw_state *b = before;
    dw_state a = *b;
    dw_apply(&a, action);
    cJSON *events = cJSON_CreateArray();
    if (!events)
        return NULL;
    bool ok;
    if (action >= DW_ACT_DRAW_PERSONAL) {
        ok = draw_event(events, b, action, viewer) != NULL;
    } else {
        const dw_move m = dw_decode(action);
        ok = play_event(events, b, &a, &m) && control_events(events, b, &a) &&
             refill_event(events, &a, b->to_move);
    }
    if (!ok || !turn_events(events, b, &a)) {
        cJSON_Delete(events);
        return NULL;
    }
    return events;
}

/* The names of the cards viewer cannot see that are not also shown somewhere they can (their
 * hand and personal deck for a seat, the board and the removed piles for everyone). */
int dw_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    const dw_state *s = st;
    const int me = dw_viewer_seat(viewer);
    uint8_t hidden[DW_FACES] = {0}, shown[DW_FACES], played[DW_FACES];
    dw_played_by(s, DW_BLUE, shown);
    dw_played_by(s, DW_RED, played);
    for (int f = 0; f < DW_FACES; f++)
        shown[f] = (uint8_t)(shown[f] + played[f]);
    for (int q = 0; q < 2; q++)
        dw_add_held(s, q, q == me ? shown : hidden);
    for (int i = 0; i < s->main_n; i++)
        hidden[s->main[i]]++;
    rp_text t;
    rp__text_init(&t, buf, size);
    for (int f = 0, n = 0; f < DW_FACES; f++)
        if (hidden[f] && !shown[f]) {
            rp__put_sep(&t, &n, ' ');
            rp__text_str(&t, dw_card_name[f]);
        }
    return rp__text_finish(&t);
}

/* ------------------------------------------------------------------------------------------ */
/* The screen                                                                                 */

/* ANSI colour for a seat (2: reset), or nothing when colour is off. */
static const char *col(bool color, int seat)
{
    if (!color)
        return "";
    return seat == DW_BLUE ? "\x1b[1;34m" : seat == DW_RED ? "\x1b[1;31m" : "\x1b[0m";
}

/* A seat's name, coloured when asked. */
static void put_seat(FILE *out, bool color, int seat)
{
    fprintf(out, "%s%s%s", col(color, seat), dw_seat_names[seat], col(color, 2));
}

/* A list of items on the screen, ", " between them, wrapped before column 80 and continued
 * under column `indent`. */
typedef struct dw_line {
    FILE *out;
    int col, indent, items;
} dw_line;

/* Add an item after `sep` (", " or "; "), on a new line if it would reach column 80. */
static void line_item_after(dw_line *l, const char *sep, const char *item)
{
    const int len = (int)strlen(item), seplen = l->items ? (int)strlen(sep) : 0;
    if (l->items && l->col + seplen + len >= 80) {
        fprintf(l->out, "%c\n%*s", sep[0], l->indent, "");
        l->col = l->indent;
    } else if (l->items) {
        fputs(sep, l->out);
        l->col += seplen;
    }
    fputs(item, l->out);
    l->col += len;
    l->items++;
}

static void line_item(dw_line *l, const char *item)
{
    line_item_after(l, ", ", item);
}

/* Counted cards as items, "archer-1 x2" for copies, the first one after `lead` ("Blue's "),
 * following earlier items after "; "; "none" when there are none. */
static void line_counts_led(dw_line *l, const char *lead, const uint8_t *counts)
{
    const int before = l->items;
    for (int f = 0; f < DW_FACES; f++) {
        char item[40];
        if (!counts[f])
            continue;
        const char *head = l->items == before ? lead : "";
        if (counts[f] == 1)
            snprintf(item, sizeof item, "%s%s", head, dw_card_name[f]);
        else
            snprintf(item, sizeof item, "%s%s x%d", head, dw_card_name[f], counts[f]);
        line_item_after(l, l->items == before ? "; " : ", ", item);
    }
    if (l->items == before) {
        char item[40];
        snprintf(item, sizeof item, "%snone", lead);
        line_item_after(l, "; ", item);
    }
}

static void line_counts(dw_line *l, const uint8_t *counts)
{
    line_counts_led(l, "", counts);
}

/* Width of the wall column on the screen ("Wall 2: Blue", "  flag by Red"). */
#define WALL_COLUMN 17

/* One side of a wall on one line (wrapped if long): strength, Archers, leaders, the top
 * Cannon, then the Cannons buried under it (DW-5), with what the Spy covers marked. */
static void render_side(const dw_state *s, int w, int seat, FILE *out, bool color)
{
    const dw_side side = dw_side_at(s, w, seat), *sd = &side;
    const bool spy_here = seat == DW_BLUE && s->spy_wall == w + 1;
    put_seat(out, color, seat);
    fprintf(out, "%*s%3d  ", seat == DW_BLUE ? 1 : 2, "", dw_strength(s, w, seat));
    dw_line l = {out, WALL_COLUMN + 10, WALL_COLUMN + 10, 0};
    uint8_t archers[DW_FACES];
    dw_side_archers(s, w, seat, archers);
    if (spy_here && s->spy_on <= DW_A3)
        archers[s->spy_on]--;
    if (archers[DW_A1] | archers[DW_A2] | archers[DW_A3])
        line_counts(&l, archers);
    if (spy_here && s->spy_on <= DW_A3) {
        char item[24];
        snprintf(item, sizeof item, "%s (spied)", dw_card_name[s->spy_on]);
        line_item(&l, item);
    }
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        if (sd->leaders & LB(f)) {
            char item[24];
            snprintf(item, sizeof item, "%s%s", dw_card_name[f],
                     spy_here && s->spy_on == f ? " (spied)" : "");
            line_item(&l, item);
        }
    for (int i = sd->ncannon - 1; i >= 0; i--) { /* the top Cannon, then the buried ones */
        char item[40];
        snprintf(item, sizeof item, "%s%s%s", i == sd->ncannon - 2 ? "buried: " : "",
                 dw_card_name[sd->cannon[i]],
                 spy_here && s->spy_on == DW_SPY_ON_CANNON && s->spy_depth == i ? " (spied)" : "");
        line_item(&l, item);
    }
    if (!l.items)
        fputc('-', out);
    fputc('\n', out);
}

/* The last line: whose turn and what it is, or how the game ended. */
static void render_status(const dw_state *s, FILE *out, bool color)
{
    if (s->over) {
        char reason[64];
        const int win = dw_winner(s), n = dw_walls_of(s, win);
        fputs("Game over: ", out);
        put_seat(out, color, win);
        fprintf(out, " controls %d walls to %d %s: ", n, DW_WALLS - n,
                end_reason(reason, sizeof reason, s, s->to_move ^ 1));
        put_seat(out, color, win);
        fputs(" wins.\n", out);
        return;
    }
    put_seat(out, color, s->to_move);
    if (s->phase == DW_PHASE_REFILL)
        fprintf(out, " to refill (%d of 6 held).", s->hand_n[s->to_move]);
    else
        fputs(" to play.", out);
    if (s->last_turn == DW_LAST_FLAGS)
        fputs(" Last turn: the third Flag is on the board.", out);
    else if (s->last_turn == DW_LAST_EMPTY_HAND)
        fprintf(out, " Last turn: %s ran out of cards.", dw_seat_names[s->to_move ^ 1]);
    fputc('\n', out);
}

/* What viewer sees, for a terminal of 80 columns: the turn, decks and removed piles, the five
 * walls, then the viewer's hand and personal deck, and whose turn it is. */
void dw_render(const void *st, int viewer, FILE *out, bool color)
{
    const dw_state *s = st;
    const int me = dw_viewer_seat(viewer);
    fprintf(out, "Danger at the Walls, turn %d. ", s->turn);
    if (me < 0) {
        fputs("You are watching.", out);
    } else {
        fputs("You are ", out);
        put_seat(out, color, me);
        fputc('.', out);
    }
    fprintf(out, " Flags on the board: %d of 3.\n", s->flags_on_board);
    fprintf(out,
            "Decks: main %d, Blue's personal %d, Red's personal %d. Hands: Blue %d, Red "
            "%d.\n",
            s->main_n, s->personal_n[DW_BLUE], s->personal_n[DW_RED], s->hand_n[DW_BLUE],
            s->hand_n[DW_RED]);
    fputs("Removed: ", out);
    dw_line removed = {out, 9, 9, 0};
    static const uint8_t none[DW_FACES];
    if (memcmp(s->removed, none, sizeof none) == 0 &&
        memcmp(s->removed[DW_RED], none, sizeof none) == 0) {
        line_item(&removed, "none");
    } else {
        line_counts_led(&removed, "Blue's ", s->removed[DW_BLUE]);
        line_counts_led(&removed, "Red's ", s->removed[DW_RED]);
    }
    fputc('\n', out);
    /* The columns of the walls below: who holds each wall, then each side's strength and
     * cards (without it the holder's name reads as a third side). */
    fprintf(out, "%-8s%-*s%s\n", "Wall", WALL_COLUMN - 8, "held by", "side str  cards");
    for (int w = 0; w < DW_WALLS; w++) {
        fprintf(out, "Wall %d: ", w + 1);
        put_seat(out, color, s->control[w]);
        fprintf(out, "%*s", WALL_COLUMN - 8 - (int)strlen(dw_seat_names[s->control[w]]), "");
        render_side(s, w, DW_BLUE, out, color);
        if (s->flag[w])
            fprintf(out, "  flag by %-*s", WALL_COLUMN - 10, dw_seat_names[s->flag[w] - 1]);
        else
            fprintf(out, "%*s", WALL_COLUMN, "");
        render_side(s, w, DW_RED, out, color);
    }
    if (me >= 0) {
        uint8_t own[DW_FACES] = {0};
        for (int i = 0; i < s->personal_n[me]; i++)
            own[s->personal[me][i]]++;
        fputs("Your hand: ", out);
        dw_line hand = {out, 11, 11, 0};
        line_counts(&hand, s->hand[me]);
        fprintf(out, "\nYour personal deck: ");
        dw_line deck = {out, 20, 20, 0};
        line_counts(&deck, own);
        fputc('\n', out);
    }
    render_status(s, out, color);
}

/* ------------------------------------------------------------------------------------------ */
/* The legal moves in a few words, for a prompt                                               */

/* Walls of a mask as a prompt writes them: "2", "<1|3>" or "<1-5>". */
static void put_walls(rp_text *t, unsigned mask)
{
    if (mask == (1u << DW_WALLS) - 1) {
        rp__text_str(t, "<1-5>");
        return;
    }
    const bool several = (mask & (mask - 1)) != 0;
    if (several)
        rp__text_ch(t, '<');
    for (int w = 0, n = 0; w < DW_WALLS; w++)
        if (mask & (1u << w)) {
            rp__put_sep(t, &n, '|');
            rp__text_ch(t, (char)('1' + w));
        }
    if (several)
        rp__text_ch(t, '>');
}

/* One part of the summary per distinct wall set: "verb <a|b> wall <1-5>" for the words whose
 * plays go to that set (walls false: no wall, e.g. discards). */
static void put_group(rp_text *t, int *parts, const char *verb, const char *const *words,
                      const unsigned *masks, int k, bool walls)
{
    bool done[DW_FACES] = {false};
    for (int i = 0; i < k; i++) {
        if (!masks[i] || done[i])
            continue;
        int same = 0;
        for (int j = i; j < k; j++)
            same += masks[j] == masks[i];
        rp__text_str(t, (*parts)++ ? "; " : "");
        if (verb) {
            rp__text_str(t, verb);
            rp__text_ch(t, ' ');
        }
        rp__text_str(t, same > 1 ? "<" : "");
        for (int j = i, n = 0; j < k; j++)
            if (masks[j] == masks[i]) {
                rp__put_sep(t, &n, '|');
                rp__text_str(t, words[j]);
                done[j] = true;
            }
        rp__text_str(t, same > 1 ? ">" : "");
        if (walls) {
            rp__text_str(t, " wall ");
            put_walls(t, masks[i]);
        }
    }
}

/* Below this many legal actions the numbered list is short enough to show. */
#define SUMMARY_MIN_ACTIONS 13

static const char *const CANNON_WORD[5] = {"5", "6", "7", "8", "9"};
static const char *const LEADER_WORD[6] = {"general", "noble",  "engineer",
                                           "king",    "wizard", "builder"};

/* The legal plays of a turn gathered for the summary: per kind and face or target, the walls
 * (as bits) it may go to. */
typedef struct dw_summary {
    uint8_t most[3]; /* the largest Archer play: every part of it is legal too */
    unsigned archers, cannon[5], flag[1], attack[2], leader[6];
    unsigned spy[7], assassin[8], discard[DW_FACES];
} dw_summary;

/* Add one legal play to the summary. */
static void summarize_play(dw_summary *sum, const dw_move *m)
{
    const unsigned bit = m->wall >= 0 ? 1u << m->wall : 1u;
    switch (m->kind) {
    case K_ARCHERS:
        sum->archers |= bit;
        for (int v = 0; v < 3; v++)
            sum->most[v] = m->cards[DW_A1 + v] > sum->most[v] ? m->cards[DW_A1 + v] : sum->most[v];
        break;
    case K_CANNON:
        for (int f = DW_C5; f <= DW_C9; f++)
            sum->cannon[f - DW_C5] |= m->cards[f] ? bit : 0;
        break;
    case K_FLAG:
        sum->flag[0] |= bit;
        break;
    case K_ATTACK:
        sum->attack[m->target] |= bit;
        break;
    case K_LEADER:
        for (int l = 0; l < 6; l++)
            sum->leader[l] |= m->cards[dw_leader_face[l]] ? bit : 0;
        break;
    case K_SPY:
        sum->spy[m->target] |= bit;
        break;
    case K_ASSASSIN:
        sum->assassin[m->target] |= bit;
        break;
    default:
        for (int f = 0; f < DW_FACES; f++)
            sum->discard[f] |= m->cards[f] ? 1u : 0;
    }
}

/* "archers <some of 1+1+3> wall <1|2>": the largest Archer play and the walls it may go to. */
static void put_archers(rp_text *t, int *parts, const dw_summary *sum)
{
    char list[24];
    rp_text l;
    rp__text_init(&l, list, sizeof list);
    int k = 0, total = sum->most[0] + sum->most[1] + sum->most[2];
    for (int v = 0; v < 3; v++)
        for (int i = 0; i < sum->most[v]; i++) {
            rp__put_sep(&l, &k, '+');
            rp__text_ch(&l, (char)('1' + v));
        }
    rp__text_put(t, "archers %s%s%s wall ", total > 1 ? "<some of " : "", list,
                 total > 1 ? ">" : "");
    put_walls(t, sum->archers);
    (*parts)++;
}

/* The legal plays in a few words, grouped by kind (see rp_game.moves_summary). */
int dw_moves_summary(const void *st, char *buf, size_t size)
{
    const dw_state *s = st;
    rp_action legal[RP_MAX_LEGAL];
    const int n = dw_legal_actions(s, legal);
    if (n < SUMMARY_MIN_ACTIONS || s->phase != DW_PHASE_PLAY)
        return -1;
    dw_summary sum;
    memset(&sum, 0, sizeof sum);
    for (int i = 0; i < n; i++) {
        const dw_move m = dw_decode(legal[i]);
        summarize_play(&sum, &m);
    }
    rp_text t;
    rp__text_init(&t, buf, size);
    int parts = 0;
    if (sum.archers)
        put_archers(&t, &parts, &sum);
    put_group(&t, &parts, "cannon", CANNON_WORD, sum.cannon, 5, true);
    put_group(&t, &parts, NULL, (const char *const[]){"flag"}, sum.flag, 1, true);
    put_group(&t, &parts, "attack", dw_attack_target, sum.attack, 2, true);
    put_group(&t, &parts, NULL, LEADER_WORD, sum.leader, 6, true);
    put_group(&t, &parts, "spy", dw_spy_target, sum.spy, 7, true);
    put_group(&t, &parts, "assassin", dw_assassin_target, sum.assassin, 8, true);
    put_group(&t, &parts, "discard", dw_face_words, sum.discard, DW_FACES, false);
    return rp__text_finish(&t);
}
