/* internal.h — Rush the Wall inside: the flat state, card kinds, phases and action layout,
 * the names, small helpers on the state and the narration's notes that the game's files
 * (rules.c, text.c, view.c, learn.c, game.c) share with each other and with its tests
 * (tests/test_rush_the_wall.c). Not installed. */
#ifndef RP_RUSH_THE_WALL_INTERNAL_H
#define RP_RUSH_THE_WALL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/bits.h"
#include "core/inline.h"
#include "core/notation.h"
#include "ramparts/game.h"

#define RTW_KINDS 9  /* warriors per clan, one of each kind (RW-2) */
#define RTW_FORTS 18 /* three rounds of six (RW-3) */
#define RTW_SLOTS 6  /* positions of The Wall */
#define RTW_ROUNDS 3
#define RTW_DRAW 7       /* warriors a player clan draws each round (RW-5) */
#define RTW_MAX_CLANS 4  /* RW-1 */
#define RTW_NONE 0xFF    /* an empty wall position or slot */
#define RTW_LEGION_WIN 3 /* Legions that win at once (RW-10, RW-18) */

/* Warrior kinds; the index is also the bit in every warrior mask. */
enum rtw_warrior {
    RTW_FILCHY,
    RTW_QWEEN,
    RTW_DRUHID,
    RTW_ZVORD,
    RTW_ARCHR,
    RTW_HORSIE,
    RTW_AXX,
    RTW_CHARIOTT,
    RTW_LAIRD
};

enum rtw_fort_kind { RTW_UNWARY, RTW_SIGNAL, RTW_TAX, RTW_LEGION, RTW_DINARY, RTW_FORT_KINDS };

/* Who must decide what; every state that is not over waits for one clan's decision. */
enum rtw_phase {
    RTW_PLAN,        /* actor places its next warrior (RW-5) */
    RTW_ZVORD_PLACE, /* actor re-places its hidden warriors after Zvord */
    RTW_QWEEN_PICK,  /* actor's Qween picks a rival warrior (RW-7) */
    RTW_DRUHID_PICK, /* actor (capturer) picks a fort of The Wall (RW-9) */
    RTW_SIGNAL_PICK, /* actor discards a face-up warrior for the Signal Fort (RW-10) */
    RTW_TAX_PICK,    /* actor (capturer) pays one of its forts (RW-17) */
    RTW_AXX_PICK,    /* actor (capturer) keeps or drops its Axx (RW-9) */
    RTW_HORSIE_PICK, /* actor discards a face-up warrior for its Horsie (RW-9) */
    RTW_OVER,
    RTW_PHASES
};

/* Action integers (all below RTW_NUM_ACTIONS):
 *   id       meaning                                          notation
 *   0..8     place warrior kind k in the next slot            "place axx"
 *   9        somebody placed a warrior (observe_action only)  "place hidden"
 *   10..13   the Qween charms clan c's revealed warrior       "charm red"
 *   14..19   the Dru'hid takes the fort at wall position p    "take 4"   (1-based)
 *   20..28   discard face-up warrior kind k                   "discard horsie"
 *   29..46   pay (discard) held fort f for the Tax-Collector  "pay legion-2"
 *   47       keep the Axx face up                             "keep axx"
 *   48       drop the Axx with the others                     "drop axx" */
enum {
    RTW_A_PLACE = 0,
    RTW_A_HIDDEN = 9,
    RTW_A_CHARM = 10,
    RTW_A_TAKE = 14,
    RTW_A_DISCARD = 20,
    RTW_A_PAY = 29,
    RTW_A_KEEP_AXX = 47,
    RTW_A_DROP_AXX = 48,
    RTW_NUM_ACTIONS = 49
};

/* A card set (RW-2, RW-3 defaults or a cards= option): warrior strengths by kind, and the 18
 * forts in canonical order (by kind, then nearest zero first), which numbers them 0..17. */
typedef struct rtw_cards {
    int8_t strength[RTW_KINDS];
    uint8_t fort_kind[RTW_FORTS];
    int8_t fort_value[RTW_FORTS];
} rtw_cards;

/* The whole game. Clans 0..players-1 are the seats; clans players.. are neutral (RW-11).
 * Rows of clans not in the game stay zero. */
typedef struct rtw_state {
    rp_rng rng;
    rtw_cards cards;
    uint8_t players, neutrals, clans, variant;
    uint8_t round, turn, phase, actor;
    uint8_t next_slot;       /* PLAN / ZVORD_PLACE: the slot the next placement fills */
    int8_t capturer;         /* this turn's capturer, -1 when none */
    uint8_t captured;        /* the fort it took, or RTW_NONE */
    int8_t winner;           /* a three-Legion winner (RW-18), else -1 */
    uint16_t keep;           /* capturer's warriors spared from the discard (Unwary, Axx) */
    uint8_t deck[RTW_FORTS]; /* draw order; deck[0 .. 6*(round+1)) have been drawn */
    uint8_t wall[RTW_SLOTS]; /* fort ids, RTW_NONE once fought over */
    uint32_t gone;           /* discarded forts */
    uint32_t forts[RTW_MAX_CLANS];
    uint16_t hand[RTW_MAX_CLANS];  /* warriors still to be placed */
    uint16_t drawn[RTW_MAX_CLANS]; /* this round's 7 (neutral: 6) */
    uint16_t up[RTW_MAX_CLANS];    /* face-up warriors */
    uint8_t slot[RTW_MAX_CLANS][RTW_SLOTS];
    /* The previous round's six warriors of each clan, all revealed (public), so views and
     * events can still show what the last turn of a round turned up; RTW_NONE in round 1. */
    uint8_t prev[RTW_MAX_CLANS][RTW_SLOTS];
} rtw_state;

/* Parse a card file's text (the data/rush-the-wall.cards format); `source` names it in
 * messages ("cards.txt line 4: ..."). The forts come out in canonical order. */
int rtw_cards_parse(const char *text, const char *source, rtw_cards *out, rp_error *err);
/* The one-word value of the cards= option: "default", or the spelled set
 * "S1,..,S9/F1,..,F18" (docs/rules/rush-the-wall.md). Only the canonical spelling is read. */
int rtw_cards_from_value(const char *value, rtw_cards *out, rp_error *err);
int rtw_cards_to_value(const rtw_cards *cards, char *buf, size_t size);
/* The embedded default cards (data/rush-the-wall.cards), and whether c is that set. */
const rtw_cards *rtw_default_cards(void);
bool rtw_cards_are_default(const rtw_cards *c);
/* The cards= option's from_file: a card file's text into the option's one-word value. */
int rtw_cards_from_file(const char *file_text, const char *file_name, char *value, size_t size,
                        rp_error *err);
/* Check every invariant of a state (card accounting, ranges, the phase's preconditions):
 * the game's state_ok. */
int rtw_check(const rtw_state *s, rp_error *err);
/* RW-4: the wall order of six forts drawn in `draw` order. */
void rtw_arrange_wall(const rtw_cards *cards, const uint8_t draw[RTW_SLOTS],
                      uint8_t wall[RTW_SLOTS]);

/* ---- names ---- */

static const char *const warrior_word[RTW_KINDS] = {"filchy", "qween", "druhid",   "zvord", "archr",
                                                    "horsie", "axx",   "chariott", "laird"};
static const char *const warrior_name[RTW_KINDS] = {
    "Filchy", "Qween", "Dru'hid", "Zvord", "Arch'r", "Horsie", "Axx", "Ch'ariott", "Laird"};
static const char *const fort_word[RTW_FORT_KINDS] = {"unwary", "signal", "tax", "legion",
                                                      "dinary"};
static const char *const fort_name[RTW_FORT_KINDS] = {"Unwary", "Signal", "Tax-Collector's",
                                                      "Legion", "Fort-Dinary"};
static const char fort_letter[RTW_FORT_KINDS + 1] = "ustld";
static const char *const clan_word[RTW_MAX_CLANS] = {"green", "red", "gold", "blue"};
static const char *const clan_name[RTW_MAX_CLANS] = {"Green", "Red", "Gold", "Blue"};
static const char *const phase_word[RTW_PHASES] = {"plan", "zvord", "qween",  "druhid", "signal",
                                                   "tax",  "axx",   "horsie", "over"};

#define ALL_WARRIORS ((uint16_t)((1u << RTW_KINDS) - 1))
#define ALL_FORTS ((uint32_t)((1u << RTW_FORTS) - 1))
#define BIT(k) ((uint16_t)(1u << (k)))

/* ---- small helpers on the state ---- */

static inline int popcount(uint32_t x)
{
    return rp__popcount32(x);
}

static inline int lowest_bit(uint32_t x)
{
    return __builtin_ctz(x);
}

static inline bool is_player(const rtw_state *s, int clan)
{
    return clan >= 0 && clan < s->players;
}

/* The warrior a clan revealed this turn (its slot at the current position). */
static inline int revealed(const rtw_state *s, int clan)
{
    return s->slot[clan][s->turn];
}

/* Slots turned up so far this round: none while planning. */
static inline int shown_slots(const rtw_state *s)
{
    return s->phase == RTW_PLAN ? 0 : s->turn + 1;
}

static inline int strength_of(const rtw_state *s, uint32_t mask)
{
    int total = 0;
    for (; mask; mask &= mask - 1)
        total += s->cards.strength[lowest_bit(mask)];
    return total;
}

/* RW-16 / RW-11: the weakest warrior of a mask by printed strength (all strengths differ,
 * RTW-P4). mask != 0. */
static inline int weakest(const rtw_state *s, uint32_t mask)
{
    int best = lowest_bit(mask);
    for (mask &= mask - 1; mask; mask &= mask - 1) {
        int k = lowest_bit(mask);
        if (s->cards.strength[k] < s->cards.strength[best])
            best = k;
    }
    return best;
}

static inline int legions(const rtw_state *s, int clan)
{
    int n = 0;
    for (uint32_t m = s->forts[clan]; m; m &= m - 1)
        n += s->cards.fort_kind[lowest_bit(m)] == RTW_LEGION;
    return n;
}

static inline int fort_total(const rtw_state *s, int clan)
{
    int total = 0;
    for (uint32_t m = s->forts[clan]; m; m &= m - 1)
        total += s->cards.fort_value[lowest_bit(m)];
    return total;
}

static inline int highest_fort(const rtw_state *s, int clan)
{
    int best = -1000;
    for (uint32_t m = s->forts[clan]; m; m &= m - 1)
        if (s->cards.fort_value[lowest_bit(m)] > best)
            best = s->cards.fort_value[lowest_bit(m)];
    return best;
}

/* Two forts are the same card for the player when kind and value agree. */
static inline bool same_fort(const rtw_cards *c, int a, int b)
{
    return c->fort_kind[a] == c->fort_kind[b] && c->fort_value[a] == c->fort_value[b];
}

/* RW-9: what a Horsie clan may discard: a face-up warrior other than Horsie, else Horsie. */
static inline uint16_t horsie_choices(const rtw_state *s, int clan)
{
    uint16_t others = (uint16_t)(s->up[clan] & ~BIT(RTW_HORSIE));
    return others ? others : (uint16_t)(s->up[clan] & BIT(RTW_HORSIE));
}

/* ---- narration: what an action set off, as structured notes ----
 * apply runs the rules with no narrator (NULL); events_json runs them on a copy with one, then
 * tells the notes to a viewer (tell_note). Notes hold ids, never text, so narrating costs the
 * hot path one pointer test per step. */

enum note_kind {
    N_PLACE,         /* clan placed `warrior` face down at slot `pos` (flag: again, after Zvord) */
    N_LAST_PLACE,    /* after Zvord, clan's last hidden warrior went to slot `pos` by itself */
    N_SET_ASIDE,     /* clan set aside its seventh warrior `warrior` */
    N_ATTACK,        /* turn `turn` starts: the clans fight for fort `fort` at position `pos` */
    N_REVEAL,        /* clan turned up `warrior` at slot `pos` */
    N_WRECK,         /* the clans of `mask` revealed Ch'ariotts: all discarded */
    N_QWEENS_CANCEL, /* the clans of `mask` revealed Qweens: no power (RW-7, RW-14) */
    N_QWEEN_NEUTRAL, /* a neutral clan's lone Qween: no power (RW-11) */
    N_QWEEN_ALONE,   /* clan's Qween found no rival warrior: she counts her own strength */
    N_CHARM,         /* clan's Qween charmed clan `other`'s `warrior` */
    N_TOTALS,        /* value[c]: totals; mask: clans out with Filchy */
    N_CAPTURE,       /* clan captured `fort` with value[0]; mask: clans tied (Arch'r won) */
    N_NO_CAPTURE,    /* mask: clans tied at value[0] (0: all Filchy), pos of them with Arch'r;
                      * fort lost or staying, fort2 discarded in the variant */
    N_TAKE,          /* clan's Dru'hid took `fort` at position `pos`; fort2 filled its place */
    N_UNWARY,        /* clan keeps `warrior` (RTW_NONE: none face up) */
    N_SIGNAL_FORT,   /* the Signal Fort's effect begins */
    N_SIGNAL,        /* clan discarded `warrior` for the Signal Fort */
    N_TAX,           /* clan paid `fort` (the Tax-Collector's itself when fort == fort2) */
    N_LEGION,        /* clan holds three Legions: wins (flag 0) or, neutral, cannot (flag 1) */
    N_AXX,           /* clan keeps (flag 1) or drops (flag 0) its Axx */
    N_DISCARD,       /* capturer discarded `mask`, keeping `mask2` */
    N_HORSIE,        /* clan's Horsie lost: it discarded `warrior` (RTW_NONE: nothing left) */
    N_ZVORD,         /* clan's Zvord: it takes back `pos` hidden warriors to place again */
    N_ROUND_END,     /* round `round` ended; value[c]: fort points */
    N_ROUND,         /* round `round` begins with The Wall `wall` */
    N_DRAW,          /* clan drew the seven warriors `mask` */
    N_NEUTRAL_PLAN,  /* a neutral clan laid six random warriors face down */
    N_GAME_OVER,     /* flag 1: a three-Legion win */
    N_TO_ACT         /* clan must decide next (phase of the state after) */
};

typedef struct rtw_note {
    uint8_t kind, round, turn, pos;
    int8_t clan, other;
    uint8_t warrior, fort, fort2, flag;
    uint16_t mask, mask2;
    int16_t value[RTW_MAX_CLANS];
    uint8_t wall[RTW_SLOTS];
} rtw_note;

/* Enough for the longest chain: the last placement of a round resolving all six turns
 * (about 22 notes each), the round's end and the next round's start. */
#define RTW_MAX_NOTES 256

typedef struct rtw_tell {
    rtw_note note[RTW_MAX_NOTES];
    int n;
} rtw_tell;

/* ---- options (game.c) ---- */

/* The option table's rows, in order. */
enum { OPT_NEUTRALS, OPT_VARIANT, OPT_CARDS };

/* ---- observation tensor (for learning agents; layout in docs/python.md) ----
 * What one seat may see (the same things as its view) as floats. Clans are relative: slot 0
 * is the observer, then the other players' clans in seat order, then the neutral clans. Forts
 * are shown by kind and value, as the view names them: two forts with the same label are the
 * same card to a player, so holdings count forts per label (at the first fort id of that label
 * in the card set), never per fort id. */
enum {
    RTW_OBS_FORT = RTW_FORT_KINDS + 1, /* one fort: one-hot kind, absolute value */
    RTW_OBS_SLOT = RTW_KINDS + 1,      /* one slot: one-hot warrior, face down */
    RTW_OBS_CLAN = 1 + RTW_KINDS + RTW_SLOTS * RTW_OBS_SLOT + 1 + RTW_SLOTS * RTW_KINDS +
                   RTW_FORTS, /* one clan: 143 */
    RTW_OBS_GAME = 0,
    RTW_OBS_STRENGTHS = RTW_OBS_GAME + 4 + 1 + 4 + 4 + 3 + 6 + RTW_PHASES + 4 + 1,
    RTW_OBS_FORT_SET = RTW_OBS_STRENGTHS + RTW_KINDS,
    RTW_OBS_WALL = RTW_OBS_FORT_SET + RTW_FORTS * RTW_OBS_FORT,
    RTW_OBS_TURN = RTW_OBS_WALL + RTW_SLOTS * RTW_OBS_FORT,
    RTW_OBS_DISCARDED = RTW_OBS_TURN + RTW_SLOTS + 4 + 4 + RTW_OBS_FORT + RTW_KINDS,
    RTW_OBS_OWN = RTW_OBS_DISCARDED + RTW_FORTS,
    RTW_OBS_CLANS = RTW_OBS_OWN + 2 * RTW_KINDS,
    RTW_OBS_SIZE = RTW_OBS_CLANS + RTW_MAX_CLANS * RTW_OBS_CLAN
};

/* The observation's named slices (learn.c), counted for the game table. */
#define RTW_OBS_FIELDS 8
extern const rp_obs_field rtw_obs_fields[RTW_OBS_FIELDS];

/* ---- helpers shared between the files, by the file that defines them ---- */

/* rules.c */

/* RW-7 / RW-15: the rivals whose warrior revealed this turn is still face up. */
uint16_t rtw_charm_choices(const rtw_state *s, int qween_clan);
/* RW-17: the forts a Tax-Collector's capturer may pay, one id per distinct card (the lowest
 * id), so identical forts make one action. */
uint32_t rtw_tax_choices(const rtw_state *s);
/* A new note in t (not NULL), for the narration (rules.c) and events_json. */
rtw_note *rtw_new_note(rtw_tell *t, const rtw_state *s, int kind, int clan);
/* Play a legal action telling t (not NULL) what happened (events_json); apply is the same
 * steps untold. */
void rtw_play_told(rtw_state *s, rtw_tell *t, rp_action action);
/* RW-12 tie-breaks among player clans (RTW-P6: neutrals cannot win, so they are not ranked):
 * fort total, then number of forts, then highest single fort. */
int rtw_compare_clans(const rtw_state *s, int a, int b);
/* The winning player clans as a mask (one bit, or several sharing the win). */
uint32_t rtw_winners(const rtw_state *s);

/* text.c */

/* One item of a list for people, by id. */
typedef void (*item_namer)(const rtw_state *s, int id, char *buf, size_t size);
/* The items of mask, named, comma-separated ("Axx 7, Laird 9"), or "none", into t. */
void rtw_list_items(rp_text *t, const rtw_state *s, uint32_t mask, item_namer name);
/* The warriors of mask, as rtw_warrior_text names them, into t. */
void rtw_list_warriors(rp_text *t, const rtw_state *s, uint32_t mask);
/* A warrior for people, with its strength: "Arch'r 5". */
void rtw_warrior_text(const rtw_state *s, int k, char *buf, size_t size);
/* A fort's label, kind then value: "legion-2", "dinary5", "tax8" (moves, views, events). */
int rtw_fort_label(const rtw_cards *c, int f, char *buf, size_t size);
/* A fort for people: "Legion -2", "Fort-Dinary 5". */
void rtw_fort_text(const rtw_cards *c, int f, char *buf, size_t size);

/* rules.c: reading and writing card sets */

/* The checks every card set passes, wherever it comes from; `what` prefixes the message. */
int rtw_check_cards(const rtw_cards *c, const char *what, rp_error *err);
/* The option value of a card set: "default", or "S1,..,S9/F1,..,F18" with the strengths in
 * warrior order (filchy .. laird) and each fort as its kind letter and value ("l-2"). */
void rtw_put_cards_value(rp_text *t, const rtw_cards *c);
/* A card set value for `what` (the option, or the notation's field): "default" or the
 * canonical spelled set. The notation may not spell out the default set (one text per
 * state); the option may (a designer writes sets out, and sweeps through the default). */
int rtw_read_cards_value(rp_reader *r, const char *what, rp_span v, bool option, rtw_cards *out);

/* ---- the rp_game operations, each defined in the file its section names ---- */

/* rules.c */
int rtw_init(void *st, const rp_config *cfg, rp_error *err);
int rtw_num_players(const void *st);
int rtw_current_player(const void *st);
int rtw_turn_number(const void *st);
int rtw_legal_actions(const void *st, rp_action *out);
void rtw_apply(void *st, rp_action action);
void rtw_returns(const void *st, double *out);
/* text.c */
int rtw_action_to_text(const void *st, rp_action action, char *buf, size_t size);
int rtw_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err);
int rtw_state_to_text(const void *st, char *buf, size_t size);
int rtw_state_from_text(void *st, const char *text, rp_error *err);
int rtw_state_ok(const void *st, rp_error *err);
int rtw_explain_illegal(const void *st, rp_action action, char *buf, size_t size);
/* view.c */
struct cJSON *rtw_view_json(const void *st, int viewer);
void rtw_render(const void *st, int viewer, FILE *out, bool color);
struct cJSON *rtw_action_json(const void *st, rp_action action);
struct cJSON *rtw_events_json(const void *before, rp_action action, int viewer);
int rtw_secret_names(const void *st, int viewer, char *buf, size_t size);
void rtw_describe(const void *st, FILE *out);
/* learn.c */
void rtw_determinize(void *st, int viewer, rp_rng *rng);
void rtw_determinize_seats(void *st, uint32_t viewers, rp_rng *rng);
void rtw_reseed(void *st, rp_rng *rng);
rp_action rtw_observe_action(const void *st, rp_action action, int observer);
double rtw_evaluate(const void *st, int player);
double rtw_score(const void *st, int seat);
void rtw_observation_tensor(const void *st, int player, float *out);

extern const rp_game rp_rush_the_wall;
/* The game's id and the version tag of its full-state notation: the rp_game's .id and
 * .notation_tag, also written by view.c (the view's "game") and text.c (the notation), which
 * use nothing of game.c. */
#define RTW_ID "rush-the-wall"
#define RTW_NOTATION_TAG "rw1"

#endif
