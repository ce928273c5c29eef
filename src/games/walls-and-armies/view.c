/* view.c — Walls and Armies as each viewer sees it: actions as data (action_json), the view
 * (view_json), the names of the cards nobody may learn (secret_names), the events of an action
 * told as sentences, and the terminal render. What is hidden: WA-8; the fields are listed in
 * docs/games/walls-and-armies.md. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "core/check.h"
#include "core/events.h"
#include "core/notation.h"
#include "core/text.h"
#include "core/view.h"
#include "games/walls-and-armies/internal.h"

/* ------------------------------------------------------------------------------------------
 * Cards and actions as data */

/* A card as its name ("7H"), or null when out of range. */
static cJSON *card_json(int card)
{
    if (card < 0 || card >= WA_CARDS)
        return cJSON_CreateNull();
    char c[4];
    wa_card_to_text(card, c);
    return cJSON_CreateString(c);
}

/* A set of cards as an array of names in card order (the discard pile and stacks have no
 * order). */
static cJSON *set_json(uint64_t set)
{
    cJSON *arr = cJSON_CreateArray();
    for (uint64_t m = set; m && arr; m &= m - 1)
        cJSON_AddItemToArray(arr, card_json(__builtin_ctzll(m)));
    return arr;
}

/* The action as data (the kinds and fields are listed in docs/games/walls-and-armies.md):
 * {"kind": "attack", "wall": 3, "target": null} (face down), {"kind": "attack", "shield": 1,
 * "target": "QS"}, {"kind": "stack", "stack": 1, "target": "QS", "total": 5},
 * {"kind": "leave", "stack": 1}, {"kind": "counter", "stack": 1}. Only public cards. */
cJSON *wa_action_json(const void *st, rp_action a)
{
    const wa_state *s = st;
    const wa_player *d = &s->p[s->attacker ^ 1];
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    const char *kind = "attack", *place = "wall";
    unsigned n = 0;
    int target = -1; /* card_json writes null for it */
    if (a < WA_ACT_SHIELD) {
        n = a - WA_ACT_WALL;
        if (n < d->nwalls && (s->faceup & WA_BIT(d->walls[n])))
            target = d->walls[n];
    } else if (a < WA_ACT_STACK) {
        place = "shield";
        n = a - WA_ACT_SHIELD;
        target = n < d->nshields ? d->shields[n] : -1;
    } else if (a < WA_ACT_LEAVE) {
        kind = place = "stack";
        n = a - WA_ACT_STACK;
        target = n < s->nstacks ? s->stack_target[n] : -1;
    } else {
        kind = a == WA_ACT_LEAVE ? "leave" : "counter";
        place = "stack";
        n = s->pending; /* WA_NONE: no stack, written 0 */
    }
    cJSON_AddStringToObject(o, "kind", kind);
    cJSON_AddNumberToObject(o, place, n == WA_NONE ? 0 : n + 1);
    if (a < WA_ACT_LEAVE)
        cJSON_AddItemToObject(o, "target", card_json(target));
    if (a >= WA_ACT_STACK && a < WA_ACT_LEAVE)
        cJSON_AddNumberToObject(o, "total", n < s->nstacks ? s->stack_total[n] : 0);
    return o;
}

/* ------------------------------------------------------------------------------------------
 * Views (WA-8): face-down walls and every army deck are hidden from both players, the main
 * deck's order too (so the attacker's next card is unknown to all until the attack is chosen,
 * WA-P1); face-up walls, shields, stacks, counts, the discard pile and the cards the last
 * action turned up are public. So every seat and the spectator see the same table. */

/* One player's table: name, walls (null when face down), shields, the army deck's size. */
static cJSON *player_json(const wa_state *s, int pl)
{
    const wa_player *p = &s->p[pl];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", wa_seat_name(pl));
    cJSON *walls = cJSON_AddArrayToObject(o, "walls");
    for (int i = 0; i < p->nwalls; i++)
        cJSON_AddItemToArray(walls, (s->faceup & WA_BIT(p->walls[i])) ? card_json(p->walls[i])
                                                                      : cJSON_CreateNull());
    cJSON *shields = cJSON_AddArrayToObject(o, "shields");
    for (int i = 0; i < p->nshields; i++)
        cJSON_AddItemToArray(shields, card_json(p->shields[i]));
    /* Face-down walls both players have seen (parallel to walls; null where unseen or up). */
    cJSON *seen = cJSON_AddArrayToObject(o, "walls_seen");
    for (int i = 0; i < p->nwalls; i++)
        cJSON_AddItemToArray(seen, (s->seen & WA_BIT(p->walls[i])) ? card_json(p->walls[i])
                                                                   : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "army_cards", p->narmy);
    return o;
}

/* Where a stack's target lies, as the 1-based number a player types: +N is wall N of the
 * defender, -N is shield N. */
static int target_position(const wa_state *s, int target)
{
    const wa_player *d = &s->p[s->attacker ^ 1];
    int i = wa_list_find(d->shields, d->nshields, target);
    return i >= 0 ? -(i + 1) : wa_list_find(d->walls, d->nwalls, target) + 1;
}

/* How the game ended: "no-walls" (WA-7), "turn-cap" (WA-15), or NULL while it goes on. */
static const char *end_reason(const wa_state *s)
{
    if (s->phase != WA_OVER)
        return NULL;
    return s->p[0].nwalls == 0 || s->p[1].nwalls == 0 ? "no-walls" : "turn-cap";
}

/* The public table (WA-8) as `viewer` sees it; identical for any two states nobody can tell
 * apart. Fields are listed in docs/games/walls-and-armies.md. */
cJSON *wa_view_json(const void *st, int viewer)
{
    const wa_state *s = st;
    cJSON *v = rp__view_new(WA_ID);
    if (!v)
        return NULL;
    cJSON_AddItemToObject(v, "seat", viewer >= 0 ? cJSON_CreateNumber(viewer) : cJSON_CreateNull());
    cJSON_AddNumberToObject(v, "turn", s->turn);
    cJSON_AddNumberToObject(v, "turn_cap", s->cap);
    cJSON_AddNumberToObject(v, "attacker", s->attacker);
    cJSON_AddStringToObject(v, "phase", wa_phase_names[s->phase]);
    int to_act = wa_current_player(s);
    cJSON_AddItemToObject(v, "to_act",
                          to_act >= 0 ? cJSON_CreateNumber(to_act) : cJSON_CreateNull());
    cJSON_AddItemToObject(v, "pending_stack",
                          s->pending == WA_NONE ? cJSON_CreateNull()
                                                : cJSON_CreateNumber(s->pending + 1));
    if (s->winner == WA_NONE)
        cJSON_AddNullToObject(v, "winner");
    else if (s->winner == WA_DRAW)
        cJSON_AddStringToObject(v, "winner", "draw");
    else
        cJSON_AddNumberToObject(v, "winner", s->winner);
    const char *reason = end_reason(s);
    cJSON_AddItemToObject(v, "end_reason",
                          reason ? cJSON_CreateString(reason) : cJSON_CreateNull());
    cJSON_AddNumberToObject(v, "main_deck", s->ndeck);
    cJSON_AddItemToObject(v, "discard", set_json(s->discard));
    cJSON *revealed = cJSON_AddArrayToObject(v, "revealed");
    for (int i = 0; i < s->nrevealed; i++)
        cJSON_AddItemToArray(revealed, card_json(s->revealed[i]));
    cJSON *players = cJSON_AddArrayToObject(v, "players");
    for (int pl = 0; pl < 2; pl++)
        cJSON_AddItemToArray(players, player_json(s, pl));
    cJSON *stacks = cJSON_AddArrayToObject(v, "stacks");
    for (int k = 0; k < s->nstacks; k++) {
        cJSON *o = cJSON_CreateObject();
        int at = target_position(s, s->stack_target[k]);
        cJSON_AddItemToObject(o, "target", card_json(s->stack_target[k]));
        cJSON_AddStringToObject(o, "target_kind", at < 0 ? "shield" : "wall");
        cJSON_AddNumberToObject(o, "target_number", at < 0 ? -at : at);
        cJSON_AddItemToObject(o, "cards", set_json(s->stack_cards[k]));
        cJSON_AddNumberToObject(o, "total", s->stack_total[k]);
        cJSON_AddItemToArray(stacks, o);
    }
    return v;
}

/* The cards in hidden places (face-down walls, army decks, the main deck), whatever the
 * viewer: WA-8 hides them from both players. */
uint64_t wa_hidden_cards(const wa_state *s)
{
    uint64_t hidden = 0;
    for (int i = 0; i < s->ndeck; i++)
        hidden |= WA_BIT(s->deck[i]);
    for (int pl = 0; pl < 2; pl++) {
        const wa_player *p = &s->p[pl];
        for (int i = 0; i < p->nwalls; i++)
            hidden |= WA_BIT(p->walls[i]);
        for (int i = 0; i < p->narmy; i++)
            hidden |= WA_BIT(p->army[i]);
    }
    return hidden & ~s->faceup & ~s->seen;
}

/* The names of the hidden cards not also shown by the view (the last action's revealed cards
 * stay known after a reshuffle hides them), in card order, for leak tests. */
int wa_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    (void)viewer; /* the same for everyone (WA-8) */
    const wa_state *s = st;
    uint64_t secret = wa_hidden_cards(s);
    for (int i = 0; i < s->nrevealed; i++)
        secret &= ~WA_BIT(s->revealed[i]);
    rp_text t;
    rp__text_init(&t, buf, size);
    int count = 0;
    for (uint64_t m = secret; m; m &= m - 1) {
        rp__put_sep(&t, &count, ' ');
        wa_put_card(&t, __builtin_ctzll(m));
    }
    return rp__text_finish(&t);
}

/* ------------------------------------------------------------------------------------------
 * Events: the log of one action, told as sentences (kinds and fields are listed in
 * docs/rules/walls-and-armies.md and docs/games/walls-and-armies.md). Nothing in this game is
 * private to one seat (WA-8), so every viewer is told the same; the cards that become face-down
 * walls by a capture are never named, the dealt cards neither. */

/* "Red's wall 3 (7C)", or "(turned up: 7C)" when the attack revealed it: the target of a
 * record, numbered as it was when the action began. */
static void target_text(const wa_event *e, int owner, char *out, size_t size)
{
    char c[4];
    wa_card_to_text(e->target, c);
    snprintf(out, size, "%s's %s %u (%s%s)", wa_seat_name(owner),
             (e->flags & EVF_SHIELD) ? "shield" : "wall", (unsigned)e->number,
             (e->flags & EVF_TURNED_UP) ? "turned up: " : "", c);
}

/* A set of cards for a sentence: "5H, 8C". */
static void set_text(uint64_t set, char *out, size_t size)
{
    rp_text t;
    rp__text_init(&t, out, size);
    for (uint64_t m = set; m; m &= m - 1) {
        if (t.len)
            rp__text_str(&t, ", ");
        wa_put_card(&t, __builtin_ctzll(m));
    }
}

/* The parts every stack event shares: the card, the stack, where its target is. */
static void add_target_parts(cJSON *ev, const wa_event *e)
{
    cJSON_AddItemToObject(ev, "target", card_json(e->target));
    cJSON_AddStringToObject(ev, "target_kind", (e->flags & EVF_SHIELD) ? "shield" : "wall");
    cJSON_AddNumberToObject(ev, "target_number", e->number);
    cJSON_AddNumberToObject(ev, "stack", e->stack);
}

/* A card just turned up and played against a stack (a flip or a counter): reveal, the card,
 * where the stack's target is, the stack's total and whether the card won. */
static void add_card_against_stack(cJSON *ev, const wa_event *e)
{
    rp__event_reveal(ev);
    cJSON_AddItemToObject(ev, "card", card_json(e->card));
    add_target_parts(ev, e);
    cJSON_AddNumberToObject(ev, "total", e->total);
    cJSON_AddBoolToObject(ev, "beats", (e->flags & EVF_BEATS) != 0);
}

/* "Blue flips 9H onto Red's wall 3 (7C): 9 beats 7, the wall falls." */
static cJSON *flip_event(cJSON *events, const wa_event *e)
{
    char card[4], target[64], onto[96], sum[32], outcome[96];
    wa_card_to_text(e->card, card);
    target_text(e, e->seat ^ 1, target, sizeof target);
    if (e->flags & EVF_OPENS)
        snprintf(onto, sizeof onto, "%s", target);
    else
        snprintf(onto, sizeof onto, "stack %u against %s", (unsigned)e->stack, target);
    int value = wa_card_value(e->card), against = wa_card_value(e->target);
    if (e->flags & EVF_OPENS)
        snprintf(sum, sizeof sum, "%d", value);
    else
        snprintf(sum, sizeof sum, "%u + %d = %u", (unsigned)e->before, value, (unsigned)e->total);
    const char *defender = wa_seat_name(e->seat ^ 1);
    if (e->flags & EVF_BEATS)
        snprintf(outcome, sizeof outcome, "beats %d, the %s falls", against,
                 (e->flags & EVF_SHIELD) ? "shield" : "wall");
    else if (e->flags & EVF_CAN_COUNTER)
        snprintf(outcome, sizeof outcome, "does not beat %d; %s may leave it or counter-attack",
                 against, defender);
    else
        snprintf(outcome, sizeof outcome,
                 "does not beat %d; %s has no army card to counter "
                 "with and must leave it",
                 against, defender);
    cJSON *ev = rp__event(events, "flip", e->seat, "%s flips %s onto %s: %s %s.",
                          wa_seat_name(e->seat), card, onto, sum, outcome);
    if (!ev)
        return NULL;
    add_card_against_stack(ev, e);
    cJSON_AddNumberToObject(ev, "value", against);
    cJSON_AddBoolToObject(ev, "turned_up", (e->flags & EVF_TURNED_UP) != 0);
    cJSON_AddItemToObject(ev, "cards", set_json(WA_BIT(e->card) | WA_BIT(e->target)));
    return ev;
}

/* "Red's wall 3 (7C) and the stack (9H) are discarded; Red has 4 walls left." */
static cJSON *falls_event(cJSON *events, const wa_event *e)
{
    char target[64], stack[256];
    target_text(e, e->seat, target, sizeof target);
    set_text(e->cards, stack, sizeof stack);
    bool shield = e->flags & EVF_SHIELD;
    const char *what = shield ? "shield" : "wall";
    char left[64];
    if (e->count)
        snprintf(left, sizeof left, "%u %s%s left", (unsigned)e->count, what,
                 e->count == 1 ? "" : "s");
    else if (shield)
        snprintf(left, sizeof left, "no shields left: its walls may now be attacked");
    else
        snprintf(left, sizeof left, "no walls left");
    cJSON *ev = rp__event(events, shield ? "shield-falls" : "wall-falls", e->seat,
                          "%s and the stack (%s) are discarded; %s has %s.", target, stack,
                          wa_seat_name(e->seat), left);
    if (!ev)
        return NULL;
    add_target_parts(ev, e);
    cJSON_AddNumberToObject(ev, "left", e->count);
    cJSON_AddItemToObject(ev, "cards", set_json(e->cards | WA_BIT(e->target)));
    return ev;
}

/* "Red leaves Blue's stack 1 (total 4, against 7C) in play." */
static cJSON *leave_event(cJSON *events, const wa_event *e)
{
    char target[4];
    wa_card_to_text(e->target, target);
    cJSON *ev = rp__event(events, "leave", e->seat,
                          "%s leaves %s's stack %u (total %u, against "
                          "%s) in play.",
                          wa_seat_name(e->seat), wa_seat_name(e->seat ^ 1), (unsigned)e->stack,
                          (unsigned)e->total, target);
    if (!ev)
        return NULL;
    add_target_parts(ev, e);
    cJSON_AddNumberToObject(ev, "total", e->total);
    return ev;
}

/* "Red counter-attacks Blue's stack 1 (total 7) with 10D: 10 beats 7, so Red captures it." */
static cJSON *counter_event(cJSON *events, const wa_event *e)
{
    char card[4], stack[256], outcome[320];
    wa_card_to_text(e->card, card);
    int value = wa_card_value(e->card);
    if (e->flags & EVF_BEATS) {
        snprintf(outcome, sizeof outcome, "%d beats %u, so %s captures the stack", value,
                 (unsigned)e->total, wa_seat_name(e->seat));
    } else {
        set_text(e->cards, stack, sizeof stack);
        snprintf(outcome, sizeof outcome,
                 "%d does not beat %u, so %s and the stack (%s) are "
                 "discarded",
                 value, (unsigned)e->total, card, stack);
    }
    cJSON *ev = rp__event(events, "counter", e->seat,
                          "%s counter-attacks %s's stack %u "
                          "(total %u) with %s: %s.",
                          wa_seat_name(e->seat), wa_seat_name(e->seat ^ 1), (unsigned)e->stack,
                          (unsigned)e->total, card, outcome);
    if (!ev)
        return NULL;
    add_card_against_stack(ev, e);
    cJSON_AddItemToObject(ev, "cards", set_json(WA_BIT(e->card) | e->cards));
    return ev;
}

/* "The stack's 2 cards become Red's face-down walls 5 and 6; 10D is discarded." The captured
 * cards are face-down walls now, hidden from everyone (WA-8): counted, never named. */
static cJSON *capture_event(cJSON *events, const wa_event *e)
{
    char card[4], walls[48];
    wa_card_to_text(e->card, card);
    unsigned first = e->number, last = e->number + e->count - 1u;
    if (e->count == 1)
        snprintf(walls, sizeof walls, "card becomes %s's face-down wall %u", wa_seat_name(e->seat),
                 first);
    else
        snprintf(walls, sizeof walls, "%u cards become %s's face-down walls %u %s %u",
                 (unsigned)e->count, wa_seat_name(e->seat), first, e->count == 2 ? "and" : "to",
                 last);
    cJSON *ev =
        rp__event(events, "capture", e->seat, "The stack's %s; %s is discarded.", walls, card);
    if (!ev)
        return NULL;
    cJSON_AddNumberToObject(ev, "count", e->count);
    cJSON *numbers = cJSON_AddArrayToObject(ev, "walls");
    for (unsigned w = first; w <= last && numbers; w++)
        cJSON_AddItemToArray(numbers, cJSON_CreateNumber(w));
    return ev;
}

/* "Blue's army deck is empty, so the turn ends: the unresolved stack (4H) is discarded and
 * Red's face-up walls are turned face down." */
static cJSON *turn_end_event(cJSON *events, const wa_event *e)
{
    char stacks[320] = "", cards[256], walls[96] = "";
    if (e->count) {
        set_text(e->cards, cards, sizeof cards);
        if (e->count == 1)
            snprintf(stacks, sizeof stacks, "the unresolved stack (%s) is discarded", cards);
        else
            snprintf(stacks, sizeof stacks, "the %u unresolved stacks (%s) are discarded",
                     (unsigned)e->count, cards);
    }
    if (e->flags & EVF_WALLS_DOWN)
        snprintf(walls, sizeof walls, "%s's face-up walls are turned face down",
                 wa_seat_name(e->seat ^ 1));
    cJSON *ev = rp__event(events, "turn-end", e->seat,
                          "%s's army deck is empty, so the turn "
                          "ends%s%s%s%s.",
                          wa_seat_name(e->seat), *stacks || *walls ? ": " : "", stacks,
                          *stacks && *walls ? " and " : "", walls);
    if (!ev)
        return NULL;
    cJSON_AddNumberToObject(ev, "stacks", e->count);
    cJSON_AddBoolToObject(ev, "turned_down", (e->flags & EVF_WALLS_DOWN) != 0);
    cJSON_AddItemToObject(ev, "cards", set_json(e->cards));
    return ev;
}

/* "Blue flips 6C to replenish: 6C is discarded and Blue is dealt 6 army cards.", the face
 * card that becomes a shield, or nothing left to flip (WA-5, WA-6, WA-11). */
static cJSON *replenish_event(cJSON *events, const wa_event *e)
{
    const char *who = wa_seat_name(e->seat);
    if (e->kind == EV_NO_REPLENISH)
        return rp__event(events, "no-replenish", e->seat,
                         "%s cannot replenish: the main deck "
                         "and the discard pile are empty.",
                         who);
    char card[4], dealt[96];
    wa_card_to_text(e->card, card);
    cJSON *ev;
    if (e->kind == EV_SHIELD) {
        ev = rp__event(events, "shield", e->seat,
                       "%s flips %s to replenish: a face card, it "
                       "becomes %s's shield %u.",
                       who, card, who, (unsigned)e->number);
        if (ev)
            cJSON_AddNumberToObject(ev, "shield", e->number);
    } else {
        int value = wa_card_value(e->card);
        if (e->count == value)
            snprintf(dealt, sizeof dealt, "%s is dealt %d army card%s", who, value,
                     value == 1 ? "" : "s");
        else
            snprintf(dealt, sizeof dealt, "%s is dealt the only %u card%s left", who,
                     (unsigned)e->count, e->count == 1 ? "" : "s");
        ev = rp__event(events, "replenish", e->seat,
                       "%s flips %s to replenish: %s is discarded "
                       "and %s.",
                       who, card, card, dealt);
        if (ev)
            cJSON_AddNumberToObject(ev, "count", e->count);
    }
    if (!ev)
        return NULL;
    rp__event_reveal(ev);
    cJSON_AddItemToObject(ev, "card", card_json(e->card));
    cJSON_AddItemToObject(ev, "cards", set_json(WA_BIT(e->card)));
    return ev;
}

/* "Turn 6: Red attacks with 5 army cards." (or has none: only the replenish, WA-12). */
static cJSON *turn_event(cJSON *events, const wa_event *e)
{
    cJSON *ev;
    if (e->count)
        ev = rp__event(events, "turn", e->seat, "Turn %u: %s attacks with %u army card%s.",
                       (unsigned)e->turn, wa_seat_name(e->seat), (unsigned)e->count,
                       e->count == 1 ? "" : "s");
    else
        ev = rp__event(events, "turn", e->seat,
                       "Turn %u: %s has no army cards, so the turn is "
                       "only a replenish.",
                       (unsigned)e->turn, wa_seat_name(e->seat));
    if (!ev)
        return NULL;
    cJSON_AddNumberToObject(ev, "turn", e->turn);
    cJSON_AddNumberToObject(ev, "army_cards", e->count);
    return ev;
}

/* "wall" or "walls" after a count: a winner may keep a single wall ("1 wall to 0"). */
static const char *walls_word(unsigned count)
{
    return count == 1 ? "wall" : "walls";
}

/* The end, with its reason and the score in walls (WA-7, WA-15). */
static cJSON *game_over_event(cJSON *events, const wa_event *e)
{
    unsigned w0 = e->walls[0], w1 = e->walls[1];
    bool no_walls = w0 == 0 || w1 == 0;
    cJSON *ev;
    if (no_walls) {
        int winner = e->seat;
        ev = rp__event(events, "game-over", winner, "%s has no walls left: %s wins, %u %s to 0.",
                       wa_seat_name(winner ^ 1), wa_seat_name(winner), e->walls[winner],
                       walls_word(e->walls[winner]));
    } else if (e->seat == WA_NONE) {
        ev = rp__event(events, "game-over", -1,
                       "The turn cap (%u turns) is reached with %u %s each: a draw.",
                       (unsigned)e->last, w0, walls_word(w0));
    } else {
        int winner = e->seat;
        ev = rp__event(events, "game-over", winner,
                       "The turn cap (%u turns) is reached: %s wins with %u %s to %u.",
                       (unsigned)e->last, wa_seat_name(winner), e->walls[winner],
                       walls_word(e->walls[winner]), e->walls[winner ^ 1]);
    }
    if (!ev)
        return NULL;
    cJSON_AddStringToObject(ev, "reason", no_walls ? "no-walls" : "turn-cap");
    cJSON_AddItemToObject(ev, "winner",
                          e->seat == WA_NONE ? cJSON_CreateString("draw")
                                             : cJSON_CreateNumber(e->seat));
    int walls[2] = {(int)w0, (int)w1};
    cJSON_AddItemToObject(ev, "walls", cJSON_CreateIntArray(walls, 2));
    return ev;
}

/* One record as a JSON event appended to events; NULL when memory runs out. */
static cJSON *event_json(cJSON *events, const wa_event *e)
{
    switch (e->kind) {
    case EV_FLIP:
        return flip_event(events, e);
    case EV_FALLS:
        return falls_event(events, e);
    case EV_LEAVE:
        return leave_event(events, e);
    case EV_COUNTER:
        return counter_event(events, e);
    case EV_CAPTURE:
        return capture_event(events, e);
    case EV_TURN_END:
        return turn_end_event(events, e);
    case EV_RESHUFFLE: {
        cJSON *ev = rp__event(events, "reshuffle", -1,
                              "The main deck is empty: the discard pile "
                              "(%u card%s) is shuffled into a new main deck.",
                              (unsigned)e->count, e->count == 1 ? "" : "s");
        rp__event_reveal(ev);
        if (ev)
            cJSON_AddNumberToObject(ev, "count", e->count);
        return ev;
    }
    case EV_IDLE: {
        cJSON *ev = rp__event(events, "idle", -1,
                              "Neither player has army cards and no card is "
                              "left to draw: turns %u to %u pass without play.",
                              (unsigned)e->turn, (unsigned)e->last);
        if (ev) {
            cJSON_AddNumberToObject(ev, "from", e->turn);
            cJSON_AddNumberToObject(ev, "to", e->last);
        }
        return ev;
    }
    case EV_TURN:
        return turn_event(events, e);
    case EV_GAME_OVER:
        return game_over_event(events, e);
    case EV_REPLENISH:
    case EV_SHIELD:
    case EV_NO_REPLENISH:
        return replenish_event(events, e);
    default: /* every kind has a case above */
        rp_assert(e->kind <= EV_GAME_OVER);
        return NULL;
    }
}

/* What `action` did, told to `viewer` (the same for every viewer in this game). */
cJSON *wa_events_json(const void *before, rp_action action, int viewer)
{
    (void)viewer;
    wa_state s;
    memcpy(&s, before, sizeof s);
    wa_log log;
    log.n = 0;
    wa_play(&s, action, &log);
    cJSON *events = cJSON_CreateArray();
    for (int i = 0; i < log.n && events; i++) {
        if (!event_json(events, &log.ev[i])) {
            cJSON_Delete(events);
            return NULL;
        }
    }
    return events;
}

/* ------------------------------------------------------------------------------------------
 * Render: the view as text for a terminal — the table (the defender above, the attacker
 * below, the stacks), then what happens next and what to type. */

/* [7H], red for hearts and diamonds when colour is on. */
static void render_card(FILE *out, int card, bool color)
{
    char c[4];
    wa_card_to_text(card, c);
    bool red = card % 4 == 1 || card % 4 == 2;
    if (color)
        fprintf(out, "%s[%s]\x1b[0m", red ? "\x1b[31;1m" : "\x1b[1m", c);
    else
        fprintf(out, "[%s]", c);
}

/* One player's line of counts, shields and walls (face-down walls as [##]). */
static void render_player(const wa_state *s, int pl, int viewer, FILE *out, bool color)
{
    const wa_player *p = &s->p[pl];
    fprintf(out, "%s%s%s: %d wall%s, %d shield%s, army deck %d card%s (face down)\n",
            wa_seat_name(pl), pl == viewer ? " (you)" : "", pl == s->attacker ? ", attacking" : "",
            p->nwalls, p->nwalls == 1 ? "" : "s", p->nshields, p->nshields == 1 ? "" : "s",
            p->narmy, p->narmy == 1 ? "" : "s");
    fprintf(out, "  shields:");
    if (p->nshields == 0)
        fprintf(out, " none");
    for (int i = 0; i < p->nshields; i++) {
        fprintf(out, " %d:", i + 1);
        render_card(out, p->shields[i], color);
    }
    fprintf(out, "\n  walls:  ");
    for (int i = 0; i < p->nwalls; i++) {
        fprintf(out, " %d:", i + 1);
        if (s->faceup & WA_BIT(p->walls[i]))
            render_card(out, p->walls[i], color);
        else if (s->seen & WA_BIT(p->walls[i])) { /* face down, and both saw it: (7H) */
            char name[4];
            wa_card_to_text(p->walls[i], name);
            fprintf(out, "(%s)", name);
        } else
            fprintf(out, "[##]");
    }
    fprintf(out, "\n");
}

/* The end: who won, why, and the score in walls. */
static void render_result(const wa_state *s, int viewer, FILE *out)
{
    int w0 = s->p[0].nwalls, w1 = s->p[1].nwalls;
    if (s->winner == WA_DRAW) {
        fprintf(out, "Game over at the turn cap: a draw, %d %s each.\n", w0,
                walls_word((unsigned)w0));
        return;
    }
    int winner = s->winner;
    const int kept = winner ? w1 : w0;
    fprintf(out, "Game over: %s%s wins, %d %s to %d (%s).\n", wa_seat_name(winner),
            winner == viewer ? " (you)" : "", kept, walls_word((unsigned)kept), winner ? w0 : w1,
            w0 == 0 || w1 == 0 ? "no walls left" : "more walls at the turn cap");
}

/* What happens next and which words to type, addressed to the viewer. */
static void render_prompt(const wa_state *s, int viewer, FILE *out, bool color)
{
    int d = s->attacker ^ 1;
    if (s->phase == WA_OVER) {
        render_result(s, viewer, out);
    } else if (s->phase == WA_ATTACK) {
        if (s->attacker != viewer) {
            fprintf(out, "Waiting for %s to choose an attack.\n", wa_seat_name(s->attacker));
            return;
        }
        fprintf(out,
                "Your move: %s%s. Then the top card of your army deck (unseen) is "
                "flipped onto it.\n",
                s->p[d].nshields ? "'attack shield N' (shields first)" : "'attack wall N'",
                s->nstacks ? ", or 'stack N' to add to a stack" : "");
    } else {
        fprintf(out, "Stack %u (total %d) did not beat its target ", (unsigned)s->pending + 1,
                s->stack_total[s->pending]);
        render_card(out, s->stack_target[s->pending], color);
        fprintf(out, ". ");
        if (d != viewer)
            fprintf(out, "Waiting for %s to leave it or counter-attack.\n", wa_seat_name(d));
        else if (s->p[d].narmy)
            fprintf(out,
                    "Your answer: 'leave' or 'counter' (your top army card, unseen, must "
                    "beat %d).\n",
                    s->stack_total[s->pending]);
        else
            fprintf(out, "Your answer: 'leave' (no army cards to counter with).\n");
    }
}

/* A discard pile of more cards than this is grouped by suit (issue 26: "group what is long"). */
#define WA_DISCARD_GROUPED 6

/* The ranks of one suit's cards in `cards`, in runs: " 2-4 7 10-K". */
static void render_ranks(FILE *out, uint64_t cards, int suit)
{
    for (int rank = 0; rank < 13;) {
        if (!(cards & 1ull << (rank * 4 + suit))) {
            rank++;
            continue;
        }
        int last = rank;
        while (last + 1 < 13 && cards & 1ull << ((last + 1) * 4 + suit))
            last++;
        char first_name[4], last_name[4];
        wa_card_to_text(rank * 4 + suit, first_name);
        wa_card_to_text(last * 4 + suit, last_name);
        first_name[strlen(first_name) - 1] = '\0'; /* the rank without its suit letter */
        last_name[strlen(last_name) - 1] = '\0';
        fprintf(out, " %s", first_name);
        if (last > rank)
            fprintf(out, "-%s", last_name);
        rank = last + 1;
    }
}

/* " empty", each card ("[2S] [9H]"), or when long the count and the cards grouped by suit with
 * ranks in runs: " 25 cards: clubs 4-5 7-8 10 K-A; diamonds 3 5-6 10 Q-K; ...". */
static void render_discard(FILE *out, uint64_t discard, bool color)
{
    if (!discard) {
        fprintf(out, " empty");
        return;
    }
    const int count = __builtin_popcountll(discard);
    if (count <= WA_DISCARD_GROUPED) {
        for (uint64_t m = discard; m; m &= m - 1) {
            fprintf(out, " ");
            render_card(out, __builtin_ctzll(m), color);
        }
        return;
    }
    static const char *const suits[4] = {"clubs", "diamonds", "hearts", "spades"};
    uint64_t of_suit[4] = {0};
    for (int card = 0; card < WA_CARDS; card++)
        if (discard & 1ull << card)
            of_suit[card % 4] |= 1ull << card;
    fprintf(out, " %d cards:", count);
    for (int suit = 0, first = 1; suit < 4; suit++) {
        if (!of_suit[suit])
            continue;
        const bool red = suit == 1 || suit == 2;
        fprintf(out, "%s %s%s", first ? "" : ";", color ? (red ? "\x1b[31;1m" : "\x1b[1m") : "",
                suits[suit]);
        render_ranks(out, of_suit[suit], suit);
        fprintf(out, "%s", color ? "\x1b[0m" : "");
        first = 0;
    }
}

/* The whole table as `viewer` (a seat or the spectator) sees it: exactly the view's content. */
void wa_render(const void *st, int viewer, FILE *out, bool color)
{
    const wa_state *s = st;
    fprintf(out,
            "Walls and Armies, turn %u of %u. Main deck %d cards. Discard pile:", (unsigned)s->turn,
            (unsigned)s->cap, s->ndeck);
    render_discard(out, s->discard, color);
    fprintf(out, "\n");
    if (s->nrevealed) {
        fprintf(out, "Turned up by the last move:");
        for (int i = 0; i < s->nrevealed; i++) {
            fprintf(out, " ");
            render_card(out, s->revealed[i], color);
        }
        fprintf(out, "\n");
    }
    render_player(s, s->attacker ^ 1, viewer, out, color);
    render_player(s, s->attacker, viewer, out, color);
    /* The three ways a wall is drawn mean nothing to a newcomer until said (issue 43). No
     * real card in the key: a card name on the screen that the viewer may not know reads as
     * a leak to anyone checking (tests/cli/leaks.py does). */
    fprintf(out, "  (walls: [card] face up; (card) face down, seen by both players earlier; "
                 "[##] face down, unseen)\n");
    if (s->nstacks)
        fprintf(out, "Stacks of %s:\n", wa_seat_name(s->attacker));
    for (int k = 0; k < s->nstacks; k++) {
        fprintf(out, "  stack %d: ", k + 1);
        for (uint64_t m = s->stack_cards[k]; m; m &= m - 1)
            render_card(out, __builtin_ctzll(m), color);
        fprintf(out, " = %d against ", s->stack_total[k]);
        render_card(out, s->stack_target[k], color);
        int at = target_position(s, s->stack_target[k]);
        fprintf(out, " (%s %d, value %d)%s\n", at < 0 ? "shield" : "wall", at < 0 ? -at : at,
                wa_card_value(s->stack_target[k]),
                s->pending == k ? "  <- the defender decides" : "");
    }
    render_prompt(s, viewer, out, color);
}
