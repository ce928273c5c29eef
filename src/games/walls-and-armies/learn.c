/* learn.c — Walls and Armies for search and learning: determinize (deal what a viewer cannot
 * see at random, consistently with their view), the evaluation the AI uses, and the
 * observation tensor for learning agents (layout in internal.h and docs/python.md). */
#include <string.h>

#include "core/check.h"
#include "games/walls-and-armies/internal.h"

/* ------------------------------------------------------------------------------------------
 * Determinize */

/* Deal every hidden card (face-down walls, army decks, the main deck) at random over the
 * hidden places, and give the state a fresh rng: all consistent with the public view (WA-8).
 * The pool is built from the public cards' complement in card order, never from where the
 * hidden cards lie, so the result depends only on the view and rng. The revealed list is
 * history, not a place: its cards stay in the pool. */
void wa_determinize(void *st, int viewer, rp_rng *rng)
{
    (void)viewer; /* nobody sees more than the public view, owners included (WA-8) */
    wa_state *s = st;
    uint8_t *slots[WA_CARDS];
    uint8_t pool[WA_CARDS];
    int n = 0;
    for (int pl = 0; pl < 2; pl++) {
        wa_player *p = &s->p[pl];
        for (int i = 0; i < p->nwalls; i++)
            if (!((s->faceup | s->seen) & WA_BIT(p->walls[i])))
                slots[n++] = &p->walls[i];
        for (int i = 0; i < p->narmy; i++)
            slots[n++] = &p->army[i];
    }
    for (int i = 0; i < s->ndeck; i++)
        slots[n++] = &s->deck[i];
    int m = 0;
    for (uint64_t h = wa_hidden_cards(s); h; h &= h - 1)
        pool[m++] = (uint8_t)__builtin_ctzll(h);
    rp_assert(m == n);
    if (m != n) /* not a consistent state; leave it rather than corrupt it */
        return;
    rp_rng_shuffle_u8(rng, pool, n);
    for (int i = 0; i < n; i++)
        *slots[i] = pool[i];
    uint64_t seed = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    rp_rng_seed(&s->rng, seed, rp_rng_next(rng));
}

/* ------------------------------------------------------------------------------------------
 * Evaluate: public counts only. Walls decide the game (WA-7); shields delay attacks on walls
 * and army cards are attacks or counters to come. */
double wa_evaluate(const void *st, int player)
{
    const wa_state *s = st;
    if (s->phase == WA_OVER)
        return s->winner == WA_DRAW ? 0.5 : s->winner == player ? 1.0 : 0.0;
    const wa_player *me = &s->p[player], *op = &s->p[player ^ 1];
    double x = 0.25 * (me->nwalls - op->nwalls) + 0.15 * (me->nshields - op->nshields) +
               0.04 * (me->narmy - op->narmy);
    if (me->nwalls <= 2)
        x -= 0.3;
    if (op->nwalls <= 2)
        x += 0.3;
    double y = 0.5 + 0.5 * x / (1.0 + (x < 0 ? -x : x));
    return y < 0.0 ? 0.0 : y > 1.0 ? 1.0 : y;
}

/* The mean value of one player's walls as the public view knows them: a wall face up or seen
 * (WA-8) counts its value, any other the mean of the cards nobody sees (0 without walls). */
static double wa_wall_strength(const wa_state *s, const wa_player *p, double unseen_mean)
{
    if (p->nwalls == 0)
        return 0.0;
    double sum = 0;
    for (int i = 0; i < p->nwalls; i++) {
        const bool known = (s->faceup | s->seen) & WA_BIT(p->walls[i]);
        sum += known ? wa_card_value(p->walls[i]) : unseen_mean;
    }
    return sum / p->nwalls;
}

/* What a fitted evaluation weighs for `player` (internal.h lists them), each the player's
 * side less the opponent's, so the two seats' features are opposite. Public view only. */
void wa_eval_features(const wa_state *s, int player, double x[WA_EVAL_FEATURES])
{
    const wa_player *me = &s->p[player], *op = &s->p[player ^ 1];
    const uint64_t hidden = wa_hidden_cards(s);
    int unseen = 0, unseen_sum = 0;
    for (uint64_t m = hidden; m; m &= m - 1) {
        unseen++;
        unseen_sum += wa_card_value(__builtin_ctzll(m));
    }
    /* with nothing unseen no wall is unknown; 8 is the mean of a full deck's values */
    const double unseen_mean = unseen ? (double)unseen_sum / unseen : 8.0;
    const double walls = (double)me->nwalls - op->nwalls;
    const double progress = s->cap ? (double)s->turn / s->cap : 0.0;
    const bool attacking = s->attacker == player;
    x[0] = walls;
    x[1] = (double)(op->nwalls <= 2) - (me->nwalls <= 2);
    x[2] = (double)me->nshields - op->nshields;
    x[3] = (double)me->narmy - op->narmy;
    x[4] = wa_wall_strength(s, me, unseen_mean) - wa_wall_strength(s, op, unseen_mean);
    x[5] = attacking ? 1.0 : -1.0;
    x[6] = attacking ? (double)me->narmy : -(double)op->narmy;
    x[7] = walls * progress;
}

/* ------------------------------------------------------------------------------------------
 * Observation tensor (for learning agents; layout in docs/python.md). The public table (WA-8)
 * as floats from one seat's side: "mine" and "theirs" by that seat. Per card (id = rank_index
 * * 4 + suit, see internal.h) where it is and at which position of its list, per wall
 * slot whether a card lies there face down, then the counts and the turn. */
/* One field a line: */
/* clang-format off */
const rp_obs_field wa_obs_fields[] = {
    {"cards", WA_OBS_CARDS, {WA_CARDS, WA_CHANNELS, 1},
     "per card (2C 2D 2H 2S 3C ... AS), 1 where it is: a wall of yours, of the opponent's "
     "(face up, or face down but seen by both players: `wall_slots` says which), your shield, "
     "the opponent's shield, in the discard pile, in a stack, the "
     "target of a stack, turned up by the last action; then its wall or shield number / 52, "
     "the number of the stack it is in or is the target of / 52, its place among the cards the "
     "last action turned up / 20 (0 where none applies)"},
    {"wall_slots", WA_OBS_SLOTS, {2, 2, WA_CARDS},
     "yours then the opponent's: 1 where wall number n + 1 exists, then 1 where it lies face "
     "down"},
    {"counts", WA_OBS_COUNTS, {10, 1, 1},
     "walls / 52, shields / 16, army cards / 52 (yours then the opponent's), cards in the main "
     "deck / 52, stacks / 52, cards turned up by the last action / 20, the stack the defender "
     "decides on (number / 52, 0: none)"},
    {"turn", WA_OBS_TURN, {15, 1, 1},
     "one-hot: you attack, the opponent attacks; one-hot phase: attack, defend, over; one-hot "
     "to act: you, the opponent, nobody; one-hot winner: you, the opponent, a draw, nobody yet; "
     "the game ended with no walls left; turn / 100; turn cap / 1000"},
};
/* clang-format on */
_Static_assert(sizeof wa_obs_fields / sizeof wa_obs_fields[0] == WA_OBS_FIELDS,
               "WA_OBS_FIELDS counts the fields");

static void wa_obs_list(float *cards, const uint8_t *list, int n, int channel, float scale)
{
    for (int i = 0; i < n; i++) {
        cards[list[i] * WA_CHANNELS + channel] = 1.0f;
        cards[list[i] * WA_CHANNELS + WA_CH_POSITION] = (float)(i + 1) / scale;
    }
}

void wa_observation_tensor(const void *st, int player, float *out)
{
    const wa_state *s = st;
    float *cards = out + WA_OBS_CARDS;
    memset(out, 0, WA_OBS_SIZE * sizeof *out);
    for (int side = 0; side < 2; side++) {
        const wa_player *p = &s->p[side == 0 ? player : player ^ 1];
        float *slots = out + WA_OBS_SLOTS + side * 2 * WA_CARDS;
        for (int i = 0; i < p->nwalls; i++) {
            slots[i] = 1.0f;
            if (!(s->faceup & WA_BIT(p->walls[i])))
                slots[WA_CARDS + i] = 1.0f;
            if (!((s->faceup | s->seen) & WA_BIT(p->walls[i])))
                continue; /* face down and unseen: only its slot says it is there */
            cards[p->walls[i] * WA_CHANNELS + WA_CH_MY_WALL + side] = 1.0f;
            cards[p->walls[i] * WA_CHANNELS + WA_CH_POSITION] = (float)(i + 1) / WA_CARDS;
        }
        wa_obs_list(cards, p->shields, p->nshields, WA_CH_MY_SHIELD + side, WA_CARDS);
        out[WA_OBS_COUNTS + side] = (float)p->nwalls / WA_CARDS;
        out[WA_OBS_COUNTS + 2 + side] = (float)p->nshields / WA_MAX_SHIELDS;
        out[WA_OBS_COUNTS + 4 + side] = (float)p->narmy / WA_CARDS;
    }
    for (uint64_t m = s->discard; m; m &= m - 1)
        cards[__builtin_ctzll(m) * WA_CHANNELS + WA_CH_DISCARD] = 1.0f;
    for (int k = 0; k < s->nstacks; k++) {
        const float number = (float)(k + 1) / WA_CARDS;
        for (uint64_t m = s->stack_cards[k]; m; m &= m - 1) {
            cards[__builtin_ctzll(m) * WA_CHANNELS + WA_CH_STACK] = 1.0f;
            cards[__builtin_ctzll(m) * WA_CHANNELS + WA_CH_STACK_NO] = number;
        }
        cards[s->stack_target[k] * WA_CHANNELS + WA_CH_TARGET] = 1.0f;
        cards[s->stack_target[k] * WA_CHANNELS + WA_CH_STACK_NO] = number;
    }
    for (int i = 0; i < s->nrevealed; i++) {
        cards[s->revealed[i] * WA_CHANNELS + WA_CH_REVEALED] = 1.0f;
        cards[s->revealed[i] * WA_CHANNELS + WA_CH_ORDER] = (float)(i + 1) / WA_MAX_REVEALED;
    }
    out[WA_OBS_COUNTS + 6] = (float)s->ndeck / WA_CARDS;
    out[WA_OBS_COUNTS + 7] = (float)s->nstacks / WA_CARDS;
    out[WA_OBS_COUNTS + 8] = (float)s->nrevealed / WA_MAX_REVEALED;
    out[WA_OBS_COUNTS + 9] = s->pending == WA_NONE ? 0.0f : (float)(s->pending + 1) / WA_CARDS;
    float *turn = out + WA_OBS_TURN;
    const int to_act = wa_current_player(s);
    turn[s->attacker == player ? 0 : 1] = 1.0f;
    turn[2 + s->phase] = 1.0f;
    turn[5 + (to_act == RP_TERMINAL ? 2 : to_act == player ? 0 : 1)] = 1.0f;
    turn[8 + (s->winner == WA_NONE   ? 3
              : s->winner == WA_DRAW ? 2
              : s->winner == player  ? 0
                                     : 1)] = 1.0f;
    turn[12] = s->phase == WA_OVER && (s->p[0].nwalls == 0 || s->p[1].nwalls == 0);
    turn[13] = (float)s->turn / 100.0f;
    turn[14] = (float)s->cap / 1000.0f;
}
