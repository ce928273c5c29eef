/* view.c — King of Danger as each viewer sees it (KD-10): the view, actions as data, the
 * events of an action told as sentences, the names of the cards a viewer may not learn, and
 * the terminal render. The fields: docs/games/king-of-danger.md. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/events.h"
#include "core/notation.h"
#include "core/text.h"
#include "core/view.h"
#include "games/king-of-danger/internal.h"

/* ---- views ---- */

/* A seat of this game (not the spectator). */
static bool is_seat(const kd_state *s, int viewer)
{
    return viewer >= 0 && viewer < s->players;
}

/* The trick in progress within the hand, 1-based; once over, the last one. */
int kd_trick_in_hand(const kd_state *s)
{
    const int players = s->players;
    if (players <= 0) /* a state that passed state_ok always has players */
        return 1;
    /* clang 14's analyzer reports a division by zero here on a path where it notes itself that
     * players > 0: a false positive. */
    const int done = kd_popcount(s->played) / players; /* NOLINT(clang-analyzer-core.DivideZero) */
    return s->over ? done : done + 1;
}

/* A set of cards as an array of names in id order. */
static cJSON *card_array(uint32_t mask)
{
    cJSON *a = cJSON_CreateArray();
    for (; mask; mask &= mask - 1)
        cJSON_AddItemToArray(a, cJSON_CreateString(kd_long_names[kd_lowest(mask)]));
    return a;
}

/* The cards of a trick with the seat that played each. */
static cJSON *trick_array(const kd_state *s, const uint8_t *cards, int len, int leader)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < len; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "seat", kd_seat_after(s, leader, i));
        cJSON_AddStringToObject(o, "card", kd_long_names[cards[i]]);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* JSON helpers: null stands for "no seat" / "no suit yet". */
static cJSON *seat_or_null(int seat)
{
    return seat < 0 ? cJSON_CreateNull() : cJSON_CreateNumber(seat);
}

static cJSON *suit_or_null(int suit)
{
    return suit == KD_SUIT_NONE ? cJSON_CreateNull() : cJSON_CreateString(kd_suit_names[suit]);
}

/* Two players: per seat, its face-up row (a name per pile, null where the pile is empty) and
 * its face-down row (true where a card lies face down under the face-up one: hidden from
 * everyone, its owner too, KD-P3). */
static cJSON *table_json(const kd_state *s)
{
    cJSON *seats = cJSON_CreateArray();
    for (int p = 0; p < 2; p++) {
        cJSON *row = cJSON_CreateObject(), *up = cJSON_CreateArray(), *down = cJSON_CreateArray();
        for (int i = 0; i < KD_PILES; i++) {
            const uint8_t top = s->pile_top[p][i];
            cJSON_AddItemToArray(up, top == KD_NONE ? cJSON_CreateNull()
                                                    : cJSON_CreateString(kd_long_names[top]));
            cJSON_AddItemToArray(down, cJSON_CreateBool(s->pile_under[p][i] != KD_NONE));
        }
        cJSON_AddItemToObject(row, "face_up", up);
        cJSON_AddItemToObject(row, "face_down", down);
        cJSON_AddItemToArray(seats, row);
    }
    return seats;
}

/* What `viewer` may know (KD-10): their own hand; everyone's public cards, counts, values,
 * scores, known voids; never another hand or any face-down card. The spectator (or any
 * non-seat) gets the public part. "game" names the game (its id is also a card's name: leak
 * checks read it as vocabulary, not as a card). */
cJSON *kd_view_json(const void *st, int viewer)
{
    const kd_state *s = st;
    const int n = s->players;
    const bool seated = is_seat(s, viewer);
    cJSON *v = rp__view_new(KD_ID);
    cJSON_AddNumberToObject(v, "players", n);
    cJSON_AddItemToObject(v, "seat", seat_or_null(seated ? viewer : -1));
    cJSON_AddNumberToObject(v, "hand_number", s->hand_number);
    cJSON_AddNumberToObject(v, "trick_number", kd_trick_in_hand(s));
    cJSON_AddNumberToObject(v, "tricks_per_hand", kd_tricks_in_hand(s));
    cJSON_AddNumberToObject(v, "dealer", s->dealer);
    cJSON_AddBoolToObject(v, "over", s->over);
    /* no winner before the end, nor after a short game's drawn last hand (KD-P6) */
    cJSON_AddItemToObject(v, "winner",
                          seat_or_null(s->over && s->winner != KD_NONE ? s->winner : -1));
    cJSON_AddItemToObject(v, "to_act", seat_or_null(kd_current_player(s)));
    cJSON_AddNumberToObject(v, "leader", s->leader);
    cJSON_AddItemToObject(v, "trick_suit", suit_or_null(s->suit));
    cJSON_AddItemToObject(v, "trick", trick_array(s, s->trick, s->trick_len, s->leader));
    int castle[KD_MAX_PLAYERS], score[KD_MAX_PLAYERS], held[KD_MAX_PLAYERS];
    cJSON *voids = cJSON_CreateArray();
    for (int p = 0; p < n; p++) {
        castle[p] = s->castle[p];
        score[p] = (int)s->score[p];
        held[p] = kd_popcount(s->hand[p]);
        cJSON *vp = cJSON_CreateArray();
        if (s->voids[p] & KD_VOID_WALLS)
            cJSON_AddItemToArray(vp, cJSON_CreateString("walls"));
        if (s->voids[p] & KD_VOID_CANNONS)
            cJSON_AddItemToArray(vp, cJSON_CreateString("cannons"));
        cJSON_AddItemToArray(voids, vp);
    }
    cJSON_AddItemToObject(v, "castle", cJSON_CreateIntArray(castle, n));
    cJSON_AddItemToObject(v, "score", cJSON_CreateIntArray(score, n));
    cJSON_AddItemToObject(v, "hand_sizes", cJSON_CreateIntArray(held, n));
    cJSON_AddItemToObject(v, "voids", voids);
    if (seated)
        cJSON_AddItemToObject(v, "hand", card_array(s->hand[viewer]));
    if (n == 2)
        cJSON_AddItemToObject(v, "table", table_json(s));
    cJSON_AddItemToObject(v, "aside", card_array(s->aside));
    cJSON_AddItemToObject(v, "played", card_array(s->played));
    if (s->last_len) {
        cJSON *last = cJSON_CreateObject();
        cJSON_AddItemToObject(last, "cards", trick_array(s, s->last, s->last_len, s->last_leader));
        cJSON_AddItemToObject(last, "suit", suit_or_null(s->last_suit));
        cJSON_AddItemToObject(last, "winner",
                              seat_or_null(s->last_winner == KD_NONE ? -1 : s->last_winner));
        cJSON_AddItemToObject(v, "last_trick", last);
    } else {
        cJSON_AddNullToObject(v, "last_trick");
    }
    return v;
}

/* ---- actions as data ---- */

/* The face-up pile of the seat to act that shows `card`, or -1 (two players, KD-3). */
static int pile_of(const kd_state *s, int seat, int card)
{
    if (s->players != 2 || !(s->up[seat] & (1u << card)))
        return -1;
    for (int i = 0; i < KD_PILES; i++)
        if (s->pile_top[seat][i] == card)
            return i;
    return -1;
}

/* {"kind": "play", "card": "wizard-5", "from": "hand" | "table", "pile": 0..3 (from the
 * table), "call": "walls" | "cannons" (a Wizard setting the trick suit, KD-P1)}. */
cJSON *kd_action_json(const void *st, rp_action action)
{
    const kd_state *s = st;
    const unsigned card = KD_CARD_OF(action), call = KD_CALL_OF(action);
    if (card >= KD_CARDS || call > KD_SUIT_CANNONS)
        return NULL;
    const int seat = s->over ? 0 : kd_current_player(s), pile = pile_of(s, seat, (int)card);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", "play");
    cJSON_AddStringToObject(o, "card", kd_long_names[card]);
    cJSON_AddStringToObject(o, "from", pile >= 0 ? "table" : "hand");
    if (pile >= 0)
        cJSON_AddNumberToObject(o, "pile", pile);
    if (call)
        cJSON_AddStringToObject(o, "call", kd_suit_names[call]);
    return o;
}

/* ---- events ---- */

/* "key": [names] of cards in the order given / of a set. */
static void add_card_list(cJSON *e, const char *key, const uint8_t *cards, int n)
{
    const char *names[KD_CARDS];
    for (int i = 0; i < n; i++)
        names[i] = kd_long_names[cards[i]];
    rp__event_names(e, key, names, n);
}

/* Append [names] of cards in the order given to an array (a row of face-up cards). */
static void add_card_list_to(cJSON *array, const uint8_t *cards, int n)
{
    cJSON *row = cJSON_CreateArray();
    for (int i = 0; row && i < n; i++)
        cJSON_AddItemToArray(row, cJSON_CreateString(kd_long_names[cards[i]]));
    cJSON_AddItemToArray(array, row);
}

static void add_card_set(cJSON *e, const char *key, uint32_t mask)
{
    const char *names[KD_CARDS];
    int n = 0;
    for (; mask; mask &= mask - 1)
        names[n++] = kd_long_names[kd_lowest(mask)];
    rp__event_names(e, key, names, n);
}

static void add_per_seat(cJSON *e, const char *key, const int *values, int n)
{
    if (e)
        cJSON_AddItemToObject(e, key, cJSON_CreateIntArray(values, n));
}

/* What one story note tells `viewer`; before and after are the states around the action. */
typedef struct kd_telling {
    cJSON *events;
    const kd_state *before, *after;
    const kd_story *story;
    int viewer;
} kd_telling;

/* "Blue leads walls-3." A card from a hand was hidden until now: a reveal. */
static void tell_play(const kd_telling *tl, const kd_note *n)
{
    const bool from_table = n->pile >= 0;
    cJSON *e = rp__event(tl->events, "play", n->seat, "%s %s %s%s.", kd_seat_names[n->seat],
                         tl->before->trick_len == 0 ? "leads" : "plays", kd_long_names[n->card],
                         from_table ? " from the table" : "");
    add_card_list(e, "cards", &n->card, 1);
    if (!e)
        return;
    cJSON_AddStringToObject(e, "from", from_table ? "table" : "hand");
    if (from_table)
        cJSON_AddNumberToObject(e, "pile", n->pile);
    else
        rp__event_reveal(e);
}

/* KD-3: the face-down card under a played face-up card turns face up (hidden from everyone,
 * its owner too, until now: KD-P3). */
static void tell_flip(const kd_telling *tl, const kd_note *n)
{
    cJSON *e =
        rp__event(tl->events, "flip", n->seat, "Under %s, %s turns face up on %s's table (KD-3).",
                  kd_long_names[n->played], kd_long_names[n->card], kd_seat_names[n->seat]);
    add_card_list(e, "cards", &n->card, 1);
    if (e)
        cJSON_AddNumberToObject(e, "pile", n->pile);
    rp__event_reveal(e);
}

/* KD-4: the first non-King card sets the trick suit; a Wizard's player names it. */
static void tell_suit(const kd_telling *tl, const kd_note *n)
{
    const char *suit = kd_suit_titles[n->suit];
    cJSON *e =
        n->kind == NOTE_CALL
            ? rp__event(tl->events, "call", n->seat, "%s's %s names %s: this is a %s trick (KD-4).",
                        kd_seat_names[n->seat], kd_long_names[n->card], suit, suit)
            : rp__event(tl->events, "trick-suit", n->seat, "%s makes this a %s trick (KD-4).",
                        kd_long_names[n->card], suit);
    add_card_list(e, "cards", &n->card, 1);
    if (e)
        cJSON_AddStringToObject(e, "suit", kd_suit_names[n->suit]);
}

/* KD-5, KD-P2: a seat that does not follow has none of the suit in hand. */
static void tell_void(const kd_telling *tl, const kd_note *n)
{
    const char *name = kd_seat_names[n->seat], *suit = kd_suit_titles[n->suit];
    cJSON *e = rp__event(tl->events, "void", n->seat,
                         "%s does not follow %s, so %s holds no "
                         "%s card in hand for the rest of this hand (KD-P2).",
                         name, suit, name, suit);
    if (e)
        cJSON_AddStringToObject(e, "suit", kd_suit_names[n->suit]);
}

/* KD-6: who won the trick and by which case. */
static void tell_won(const kd_telling *tl, const kd_note *n)
{
    static const char *const case_names[4] = {"king-of-danger", "king", "highest", "tie"};
    static const char *const condition[4] = {"", "a Walls card is in the trick",
                                             "a Cannons card is in the trick",
                                             "a Wizard is in the trick"};
    const char *who = kd_seat_names[n->seat], *card = kd_long_names[n->card];
    const char *suit = kd_suit_titles[n->suit];
    char why[160];
    switch (n->why) {
    case WIN_DANGER:
        snprintf(why, sizeof why, "the King of Danger beats every other card");
        break;
    case WIN_KING:
        snprintf(why, sizeof why, "%s, and it is the last King played whose condition holds",
                 condition[n->card]);
        break;
    case WIN_TIE: {
        int tied = n->card;
        for (int i = 0; i < tl->story->trick_len; i++)
            if (((1u << tl->story->trick[i]) & KD_WIZARDS) &&
                kd_card_rank[tl->story->trick[i]] == kd_card_rank[n->card])
                tied = tl->story->trick[i];
        snprintf(why, sizeof why, "it ties %s, and the %s card wins the tie", kd_long_names[tied],
                 suit);
        break;
    }
    default:
        snprintf(why, sizeof why, "the highest %s card or Wizard", suit);
        break;
    }
    cJSON *e = rp__event(tl->events, "trick-won", n->seat, "%s's %s wins the %s trick: %s (KD-6).",
                         who, card, suit, why);
    add_card_list(e, "cards", tl->story->trick, tl->story->trick_len);
    if (!e)
        return;
    cJSON_AddStringToObject(e, "card", card);
    cJSON_AddStringToObject(e, "suit", kd_suit_names[n->suit]);
    cJSON_AddStringToObject(e, "case", case_names[n->why]);
    cJSON_AddNumberToObject(e, "leader", tl->before->leader);
}

/* KD-7: a trick of Kings only scores nothing and its leader leads again. */
static void tell_set_aside(const kd_telling *tl, const kd_note *n)
{
    cJSON *e = rp__event(tl->events, "trick-set-aside", n->seat,
                         "Only Kings were played, so "
                         "the trick is set aside: no castle changes, and %s leads again (KD-7).",
                         kd_seat_names[n->seat]);
    add_card_list(e, "cards", tl->story->trick, tl->story->trick_len);
}

/* KD-8: a castle tracker moves (or stays at 1 or 8, KD-1). */
static void tell_castle(const kd_telling *tl, const kd_note *n)
{
    static const char *const reasons[3] = {
        "for winning the Walls trick", "for playing a Walls card", "for losing the Cannons trick"};
    const char *who = kd_seat_names[n->seat];
    const char *reason = reasons[n->why];
    cJSON *e;
    if (n->to == n->from)
        e = rp__event(tl->events, "castle", n->seat,
                      "%s's castle stays at %d, the %s value (%+d %s, KD-8).", who, n->to,
                      n->change > 0 ? "highest" : "lowest", n->change, reason);
    else
        e = rp__event(tl->events, "castle", n->seat, "%s's castle %s from %d to %d (%+d %s, KD-8).",
                      who, n->to > n->from ? "rises" : "falls", n->from, n->to, n->change, reason);
    if (!e)
        return;
    cJSON_AddNumberToObject(e, "from", n->from);
    cJSON_AddNumberToObject(e, "to", n->to);
    cJSON_AddNumberToObject(e, "change", n->change);
}

/* KD-9: each castle value goes onto its owner's score. */
static void tell_hand_over(const kd_telling *tl, const kd_note *n)
{
    const kd_state *s = tl->after;
    char text[400];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    int castle[KD_MAX_PLAYERS], score[KD_MAX_PLAYERS];
    for (int p = 0; p < s->players; p++) {
        castle[p] = s->castle[p];
        score[p] = (int)s->score[p];
        rp__text_put(&t, "%s%s adds %d to reach %d", p ? ", " : "", kd_seat_names[p], castle[p],
                     score[p]);
    }
    cJSON *e =
        rp__event(tl->events, "hand-over", -1, "Hand %d is over: %s (KD-9).", n->value, text);
    if (!e)
        return;
    cJSON_AddNumberToObject(e, "hand", n->value);
    add_per_seat(e, "castle", castle, s->players);
    add_per_seat(e, "score", score, s->players);
}

/* The seats with the highest score, "Blue and Red" style, into t; returns how many. */
static int put_leaders(rp_text *t, const kd_state *s, uint32_t top, int *seats)
{
    int k = 0;
    for (int p = 0; p < s->players; p++)
        if (s->score[p] == top)
            seats[k++] = p;
    for (int i = 0; i < k; i++)
        rp__text_put(t, "%s%s", i == 0 ? "" : i == k - 1 ? " and " : ", ", kd_seat_names[seats[i]]);
    return k;
}

/* KD-9, KD-14: 31 reached but the highest score is shared: another hand. */
static void tell_tie(const kd_telling *tl, const kd_note *n)
{
    const uint32_t top = tl->after->score[n->seat];
    char names[80];
    int seats[KD_MAX_PLAYERS];
    rp_text t;
    rp__text_init(&t, names, sizeof names);
    const int k = put_leaders(&t, tl->after, top, seats);
    cJSON *e = rp__event(tl->events, "tie", -1,
                         "%s share the highest score, %" PRIu32 ", so "
                         "another hand is played (KD-9, KD-14).",
                         names, top);
    add_per_seat(e, "seats", seats, k);
    if (e)
        cJSON_AddNumberToObject(e, "score", top);
}

/* KD-9: the game ends with a sole highest score of 31 or more; a short game (KD-P6) after its
 * last hand too, with a sole highest score (the winner) or a shared one (a draw: no winner). */
static void tell_game_over(const kd_telling *tl, const kd_note *n)
{
    const kd_state *s = tl->after;
    char others[200];
    rp_text t;
    rp__text_init(&t, others, sizeof others);
    int score[KD_MAX_PLAYERS];
    const bool draw = n->seat == KD_NONE;
    for (int p = 0, k = 0; p < s->players; p++) {
        score[p] = (int)s->score[p];
        if (p != n->seat)
            rp__text_put(&t, "%s%s %d", k++ ? ", " : "", kd_seat_names[p], score[p]);
    }
    cJSON *e;
    if (draw)
        e = rp__event(tl->events, "game-over", -1,
                      "Hand %u was the last (KD-P6) and the highest score is shared: a draw; %s.",
                      (unsigned)s->hand_number, others);
    else if (score[n->seat] < KD_GOAL)
        e = rp__event(tl->events, "game-over", n->seat,
                      "%s wins the game with %d points, the only highest score after the last "
                      "hand, %u (KD-P6); %s.",
                      kd_seat_names[n->seat], score[n->seat], (unsigned)s->hand_number, others);
    else
        e = rp__event(tl->events, "game-over", n->seat,
                      "%s wins the game with %d points, "
                      "the only highest score, at 31 or more (KD-9); %s.",
                      kd_seat_names[n->seat], score[n->seat], others);
    if (!e)
        return;
    cJSON_AddItemToObject(e, "winner", seat_or_null(draw ? -1 : n->seat));
    add_per_seat(e, "score", score, s->players);
}

/* KD-2, KD-3: a new hand. Each seat is told its own hand, everyone the counts and the cards
 * dealt face up. */
static void tell_deal(const kd_telling *tl, const kd_note *n)
{
    const kd_state *s = tl->after;
    char text[480];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    if (s->players == 2) {
        rp__text_put(&t,
                     "deals each player %d face-down card%s, each topped by a face-up card, "
                     "and a hand of %d (KD-3%s). Face up",
                     kd_piles(s), kd_piles(s) == 1 ? "" : "s", kd_hand_cards(s),
                     s->short_piles ? ", the short game's deal, KD-P6" : "");
        for (int p = 0; p < 2; p++) {
            rp__text_put(&t, "%s %s's table: ", p ? "; on" : " on", kd_seat_names[p]);
            for (int i = 0; i < kd_piles(s); i++)
                rp__text_put(&t, "%s%s", i ? ", " : "", kd_long_names[s->pile_top[p][i]]);
            if (kd_piles(s) == 0)
                rp__text_str(&t, "nothing");
        }
    } else {
        rp__text_put(&t, "deals %d cards to each player and sets aside face up: ",
                     kd_hand_deal_size(s->players));
        kd_put_names(&t, s->aside);
        rp__text_str(&t, " (KD-2)");
    }
    if (is_seat(s, tl->viewer)) {
        rp__text_str(&t, ". Your hand: ");
        kd_put_names(&t, s->hand[tl->viewer]);
    }
    cJSON *e = rp__event(tl->events, "deal", n->seat, "Hand %d: %s %s.", n->value,
                         kd_seat_names[n->seat], text);
    if (is_seat(s, tl->viewer))
        add_card_set(e, "cards", s->hand[tl->viewer]);
    rp__event_reveal(e);
    if (!e)
        return;
    int held[KD_MAX_PLAYERS];
    for (int p = 0; p < s->players; p++)
        held[p] = kd_popcount(s->hand[p]);
    cJSON_AddNumberToObject(e, "hand", n->value);
    add_per_seat(e, "hand_sizes", held, s->players);
    if (s->players == 2) {
        cJSON *rows = cJSON_AddArrayToObject(e, "face_up");
        for (int p = 0; rows && p < 2; p++)
            add_card_list_to(rows, s->pile_top[p], kd_piles(s));
    } else {
        add_card_set(e, "aside", s->aside);
    }
}

static void tell_turn(const kd_telling *tl, const kd_note *n)
{
    if (n->value)
        rp__event(tl->events, "turn", n->seat, "%s leads the next trick.", kd_seat_names[n->seat]);
    else
        rp__event(tl->events, "turn", n->seat, "%s to play.", kd_seat_names[n->seat]);
}

/* The events of a legal action for one viewer: the rules run on a copy of `before` with a
 * story, and each note becomes an event. Every card named is public after the action (played,
 * flipped, dealt face up) or the viewer's own (their new hand). */
cJSON *kd_events_json(const void *before, rp_action action, int viewer)
{
    static void (*const tell[])(const kd_telling *, const kd_note *) = {
        [NOTE_PLAY] = tell_play,           [NOTE_FLIP] = tell_flip,
        [NOTE_SUIT] = tell_suit,           [NOTE_CALL] = tell_suit,
        [NOTE_VOID] = tell_void,           [NOTE_WON] = tell_won,
        [NOTE_SET_ASIDE] = tell_set_aside, [NOTE_CASTLE] = tell_castle,
        [NOTE_HAND_OVER] = tell_hand_over, [NOTE_TIE] = tell_tie,
        [NOTE_GAME_OVER] = tell_game_over, [NOTE_DEAL] = tell_deal,
        [NOTE_TURN] = tell_turn,
    };
    kd_state after;
    kd_story story;
    memcpy(&after, before, sizeof after);
    memset(&story, 0, sizeof story);
    kd_play(&after, action, &story);
    kd_telling tl = {cJSON_CreateArray(), before, &after, &story, viewer};
    if (!tl.events)
        return NULL;
    for (int i = 0; i < story.count; i++)
        tell[story.notes[i].kind](&tl, &story.notes[i]);
    return tl.events;
}

/* The cards `viewer` may not learn: other seats' hands (every hand, for the spectator) and
 * every face-down card, the viewer's own included (KD-10, KD-P3) — less the cards of the last
 * trick, which at a new hand is the old hand's: its cards are shown there and dealt again. */
int kd_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    const kd_state *s = st;
    uint32_t hidden = s->players == 2 ? s->down[0] | s->down[1] : 0;
    for (int q = 0; q < s->players; q++)
        if (q != viewer)
            hidden |= s->hand[q];
    for (int i = 0; i < s->last_len && i < KD_MAX_PLAYERS; i++)
        hidden &= ~(1u << s->last[i]);
    rp_text t;
    rp__text_init(&t, buf, size);
    for (bool first = true; hidden; hidden &= hidden - 1, first = false) {
        if (!first)
            rp__text_ch(&t, ' ');
        rp__text_str(&t, kd_long_names[kd_lowest(hidden)]);
    }
    return rp__text_finish(&t);
}

/* ---- terminal rendering ---- */

/* A card name, coloured by suit when asked: Walls yellow, Cannons red, Wizards magenta,
 * Kings bold cyan. */
static void put_card(FILE *out, int card, bool color)
{
    if (!color) {
        fputs(kd_long_names[card], out);
        return;
    }
    const uint32_t bit = 1u << card;
    const char *code = bit & KD_KINGS     ? "1;36"
                       : bit & KD_WALLS   ? "33"
                       : bit & KD_CANNONS ? "31"
                                          : "35";
    fprintf(out, "\033[%sm%s\033[0m", code, kd_long_names[card]);
}

/* A set of cards on one line, "(none)" when empty. */
static void put_cards(FILE *out, uint32_t mask, bool color)
{
    if (!mask)
        fputs("(none)", out);
    for (bool first = true; mask; mask &= mask - 1, first = false) {
        if (!first)
            fputs(" ", out);
        put_card(out, kd_lowest(mask), color);
    }
}

/* A long set of cards grouped by suit, numbers in runs: "kings danger walls; walls 1-4 6;
 * cannons 2-3; wizard 1 5-8" (the cards played this hand: one long line of names otherwise). */
static void put_cards_grouped(FILE *out, uint32_t mask, bool color)
{
    static const uint32_t suits[] = {KD_KINGS, KD_WALLS, KD_CANNONS, KD_WIZARDS};
    static const char *const colors[] = {"1;36", "33", "31", "35"};
    if (!mask)
        fputs("(none)", out);
    bool first = true;
    for (size_t g = 0; g < sizeof suits / sizeof suits[0]; g++) {
        uint32_t cards = mask & suits[g];
        if (!cards)
            continue;
        const char *name = kd_long_names[kd_lowest(cards)];
        const char *dash = strrchr(name, '-');
        if (color)
            fprintf(out, "%s\033[%sm", first ? "" : "; ", colors[g]);
        else
            fputs(first ? "" : "; ", out);
        first = false;
        if (g == 0)
            fputs("kings", out);
        else
            fprintf(out, "%.*s", dash ? (int)(dash - name) : (int)strlen(name), name);
        int numbers[KD_CARDS], n = 0;
        for (; cards; cards &= cards - 1) {
            const char *card = kd_long_names[kd_lowest(cards)];
            const char *part = strrchr(card, '-') ? strrchr(card, '-') + 1 : card;
            if (g == 0)
                fprintf(out, " %s", part);
            else
                numbers[n++] = (int)strtol(part, NULL, 10);
        }
        for (int i = 0; i < n;) {
            int j = i;
            while (j + 1 < n && numbers[j + 1] == numbers[j] + 1)
                j++;
            fprintf(out, " %d", numbers[i]);
            if (j > i)
                fprintf(out, "-%d", numbers[j]);
            i = j + 1;
        }
        if (color)
            fputs("\033[0m", out);
    }
}

/* A trick as "Blue walls-3, Red wizard-5". */
static void put_trick(const kd_state *s, FILE *out, const uint8_t *cards, int len, int leader,
                      bool color)
{
    for (int i = 0; i < len; i++) {
        fprintf(out, "%s%s ", i ? ", " : "", kd_seat_names[kd_seat_after(s, leader, i)]);
        put_card(out, cards[i], color);
    }
}

/* Two players: both tables, face-down cards shown only as such (KD-10, KD-P3). */
static void render_table(const kd_state *s, int viewer, FILE *out, bool color)
{
    for (int p = 0; p < 2; p++) {
        fprintf(out, "  %s's table%s:", kd_seat_names[p], p == viewer ? " (yours)" : "");
        for (int i = 0; i < KD_PILES; i++) {
            fputs(i ? " | " : " ", out);
            if (s->pile_top[p][i] == KD_NONE) {
                fputs("-", out);
                continue;
            }
            put_card(out, s->pile_top[p][i], color);
            if (s->pile_under[p][i] != KD_NONE)
                fputs(" on a face-down card", out);
        }
        fputs("\n", out);
    }
}

/* Draw what `viewer` sees (exactly what its view holds): scores, castle values and counts,
 * the table or the cards set aside, the last trick, then what matters now: the trick and its
 * suit, the viewer's hand and whose turn it is. */
void kd_render(const void *st, int viewer, FILE *out, bool color)
{
    const kd_state *s = st;
    const int n = s->players, to_act = kd_current_player(s);
    const bool seated = is_seat(s, viewer);
    fprintf(out, "King of Danger - hand %u, trick %d of %d, %s deals, game to 31",
            (unsigned)s->hand_number, kd_trick_in_hand(s), kd_tricks_in_hand(s),
            kd_seat_names[s->dealer]);
    if (s->last_hand)
        fprintf(out, " or the end of hand %u (KD-P6)", (unsigned)s->last_hand);
    fputs("\n", out);
    fputs("  seat          score  castle  in hand  known void\n", out);
    for (int p = 0; p < n; p++) {
        char name[24];
        snprintf(name, sizeof name, "%s%s", kd_seat_names[p], p == viewer ? " (you)" : "");
        fprintf(out, "%s %-12s %5" PRIu32 "  %6d  %7d  %s%s\n", p == to_act ? ">" : " ", name,
                s->score[p], s->castle[p], kd_popcount(s->hand[p]),
                s->voids[p] & KD_VOID_WALLS ? "walls " : "",
                s->voids[p] & KD_VOID_CANNONS ? "cannons" : "");
    }
    if (n == 2) {
        render_table(s, viewer, out, color);
    } else {
        fputs("  Set aside this hand: ", out);
        put_cards(out, s->aside, color);
        fputs("\n", out);
    }
    fputs("  Played this hand: ", out);
    put_cards_grouped(out, s->played, color);
    fputs("\n", out);
    if (s->last_len) {
        fputs("  Last trick: ", out);
        put_trick(s, out, s->last, s->last_len, s->last_leader, color);
        if (s->last_winner == KD_NONE)
            fputs(" - only Kings, set aside\n", out);
        else
            fprintf(out, " - %s trick, won by %s\n", kd_suit_titles[s->last_suit],
                    kd_seat_names[s->last_winner]);
    }
    if (s->over && s->winner == KD_NONE) {
        fputs("Game over: the highest score is shared after the last hand, a draw (KD-P6).\n", out);
        return;
    }
    if (s->over) {
        fprintf(out, "Game over: %s wins with %" PRIu32 " points.\n", kd_seat_names[s->winner],
                s->score[s->winner]);
        return;
    }
    fprintf(out, "  Trick (suit: %s): ", kd_suit_titles[s->suit]);
    if (s->trick_len == 0)
        fprintf(out, "%s leads", kd_seat_names[s->leader]);
    put_trick(s, out, s->trick, s->trick_len, s->leader, color);
    fputs("\n", out);
    if (seated) {
        fputs("  Your hand: ", out);
        put_cards(out, s->hand[viewer], color);
        fputs("\n", out);
    }
    fprintf(out, "%s to play%s.\n", kd_seat_names[to_act], to_act == viewer ? " (you)" : "");
}
