/* learn.c — King of Danger for search and learning: determinize (deal what a viewer cannot
 * see at random, consistently with their view), the evaluation the AI uses, and the
 * observation tensor (layout in internal.h and docs/python.md). */
#include <math.h>
#include <string.h>

#include "core/check.h"
#include "games/king-of-danger/internal.h"

/* ---- determinize ---- */

/* A group of hidden places that take the same cards: a hand (not its voided suits, KD-P2) or
 * all face-down table cards together. */
typedef struct kd_group {
    uint32_t accept;
    int cap;
    uint32_t got;
    uint8_t order[KD_CARDS]; /* cards in the order received (face-down slots) */
} kd_group;

/* Hall's condition for what is left: Walls and Cannons cards fit the places that take them. */
static bool placement_feasible(const kd_group *g, int groups, int walls, int cannons)
{
    int cap_w = 0, cap_c = 0, cap_wc = 0;
    for (int i = 0; i < groups; i++) {
        if (g[i].accept & KD_WALLS)
            cap_w += g[i].cap;
        if (g[i].accept & KD_CANNONS)
            cap_c += g[i].cap;
        if (g[i].accept & (KD_WALLS | KD_CANNONS))
            cap_wc += g[i].cap;
    }
    return walls <= cap_w && cannons <= cap_c && walls + cannons <= cap_wc;
}

/* Put one card into a random group that takes it (weighted by room) and leaves the rest
 * placeable; walls/cannons count the unplaced cards after this one. */
static void place_card(kd_group *g, int groups, int card, int walls, int cannons, rp_rng *rng)
{
    const uint32_t bit = 1u << card;
    int room = 0;
    for (int i = 0; i < groups; i++)
        if (g[i].accept & bit)
            room += g[i].cap;
    int pick = (int)rp_rng_below(rng, (uint32_t)room), first = 0;
    for (int i = 0; i < groups; i++)
        if (g[i].accept & bit) {
            if (pick < g[i].cap) {
                first = i;
                break;
            }
            pick -= g[i].cap;
        }
    for (int k = 0; k < groups; k++) {
        kd_group *x = &g[(first + k) % groups];
        if (!(x->accept & bit) || x->cap == 0)
            continue;
        x->cap--;
        if (placement_feasible(g, groups, walls, cannons)) {
            x->order[kd_popcount(x->got)] = (uint8_t)card;
            x->got |= bit;
            return;
        }
        x->cap++;
    }
}

/* Resample the hands of the seats not in `viewers` (every hand, for none) and every
 * face-down card, the viewers' own too (KD-10, KD-P3), among the cards none of the viewers
 * holds or has seen, keeping hand sizes, pile shapes and known voids (KD-P2); reseed the deal
 * rng. */
void kd_determinize_seats(void *st, uint32_t viewers, rp_rng *rng)
{
    kd_state *s = st;
    const uint64_t a = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    const uint64_t b = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    rp_rng_seed(&s->rng, a, b);
    if (s->over)
        return;
    kd_group g[KD_MAX_PLAYERS + 1];
    int seat_of[KD_MAX_PLAYERS + 1], groups = 0;
    uint32_t pool = 0;
    for (int q = 0; q < s->players; q++) {
        if (viewers & 1u << q)
            continue;
        memset(&g[groups], 0, sizeof g[groups]);
        g[groups].accept = KD_ALL & ~((s->voids[q] & KD_VOID_WALLS ? KD_WALLS : 0) |
                                      (s->voids[q] & KD_VOID_CANNONS ? KD_CANNONS : 0));
        g[groups].cap = kd_popcount(s->hand[q]);
        seat_of[groups++] = q;
        pool |= s->hand[q];
    }
    if (s->players == 2) {
        memset(&g[groups], 0, sizeof g[groups]);
        g[groups].accept = KD_ALL;
        g[groups].cap = kd_popcount(s->down[0] | s->down[1]);
        seat_of[groups++] = -1;
        pool |= s->down[0] | s->down[1];
    }
    uint8_t cards[KD_CARDS];
    int count = 0, walls = kd_popcount(pool & KD_WALLS), cannons = kd_popcount(pool & KD_CANNONS);
    for (uint32_t m = pool; m; m &= m - 1)
        cards[count++] = (uint8_t)kd_lowest(m);
    rp_rng_shuffle_u8(rng, cards, count);
    for (int i = 0; i < count; i++) {
        const uint32_t bit = 1u << cards[i];
        walls -= (bit & KD_WALLS) != 0;
        cannons -= (bit & KD_CANNONS) != 0;
        place_card(g, groups, cards[i], walls, cannons, rng);
    }
    for (int i = 0; i < groups; i++) {
        if (seat_of[i] >= 0) {
            s->hand[seat_of[i]] = g[i].got;
            continue;
        }
        int k = 0;
        for (int p = 0; p < 2; p++) {
            s->down[p] = 0;
            for (int j = 0; j < KD_PILES; j++)
                if (s->pile_under[p][j] != KD_NONE) {
                    s->pile_under[p][j] = g[i].order[k++];
                    s->down[p] |= 1u << s->pile_under[p][j];
                }
        }
    }
}

/* One viewer (a seat, or RP_SPECTATOR who holds no hand). */
void kd_determinize(void *st, int player, rp_rng *rng)
{
    kd_determinize_seats(st, player >= 0 ? 1u << player : 0u, rng);
}

/* What no player knows (KD-10, KD-P3): the face-down table cards of a two-player hand, owners
 * included, are shuffled among their places (sorted first, so the result never depends on
 * where they lay); the generator of every later deal is seeded anew. */
void kd_reseed(void *st, rp_rng *rng)
{
    kd_state *s = st;
    const uint64_t a = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    const uint64_t b = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    rp_rng_seed(&s->rng, a, b);
    if (s->over || s->players != 2)
        return;
    uint8_t cards[2 * KD_PILES];
    int count = 0;
    for (uint32_t m = s->down[0] | s->down[1]; m; m &= m - 1)
        cards[count++] = (uint8_t)kd_lowest(m);
    rp_rng_shuffle_u8(rng, cards, count);
    int k = 0;
    for (int p = 0; p < 2; p++) {
        s->down[p] = 0;
        for (int j = 0; j < KD_PILES; j++)
            if (s->pile_under[p][j] != KD_NONE) {
                s->pile_under[p][j] = cards[k++];
                s->down[p] |= 1u << s->pile_under[p][j];
            }
    }
}

/* ---- evaluation ---- */

/* A seat's game score: the points its hands have scored so far. */
double kd_score(const void *st, int seat)
{
    return ((const kd_state *)st)->score[seat];
}

/* Suit cards and Wizards of 6 or more in a set of cards. */
static int kd_high_cards(uint32_t m)
{
    int n = 0;
    for (; m; m &= m - 1) {
        const int card = kd_lowest(m);
        n += card >= KD_WALLS_1 && kd_card_rank[card] >= 6;
    }
    return n;
}

/* What kd_evaluate weighs for `player`, from what it sees only (KD-10); scripts/kd-positions.c
 * computes the same for fitting. */
void kd_eval_features(const kd_state *s, int player, double x[KD_EVAL_FEATURES])
{
    const int n = s->players;
    memset(x, 0, KD_EVAL_FEATURES * sizeof *x);
    if (n < 2) /* a state that passed state_ok always has two or more */
        return;
    const int tricks_per_hand = kd_tricks_in_hand(s);
    double best_total = -1e9, best_score = -1e9, best_castle = -1e9;
    double top_score = s->score[player];
    for (int p = 0; p < n; p++) {
        if (s->score[p] > top_score)
            top_score = s->score[p];
        if (p == player)
            continue;
        const double total = (double)s->score[p] + s->castle[p];
        best_total = total > best_total ? total : best_total;
        best_score = s->score[p] > best_score ? s->score[p] : best_score;
        best_castle = s->castle[p] > best_castle ? s->castle[p] : best_castle;
    }
    /* its hand and face-up cards against the cards it has not seen, which lie in the other
     * hands and face down */
    const uint32_t own = kd_playable_from(s, player);
    uint32_t seen = own | s->played | s->aside | s->trick_mask;
    if (n == 2)
        seen |= s->up[0] | s->up[1];
    const uint32_t unseen = kd_deck(s) & ~seen;
    const double lead = (double)s->score[player] + s->castle[player] - best_total;
    const double castle_lead = s->castle[player] - best_castle;
    const double left = kd_popcount(kd_cards_left(s, player)) / (double)tricks_per_hand;
    const double need = top_score >= KD_GOAL ? 0 : (KD_GOAL - top_score) / KD_GOAL;
    x[0] = lead / 4.0;
    x[1] = (double)s->score[player] - best_score;
    x[2] = castle_lead;
    x[3] = castle_lead * left;
    x[4] = castle_lead * need;
    x[5] = kd_popcount(own & KD_KINGS) - kd_popcount(unseen & KD_KINGS) / (double)(n - 1);
    x[6] = kd_high_cards(own) - kd_high_cards(unseen) / (double)(n - 1);
    x[7] = lead * (1 - need);
}

/* Weights of the fitted evaluation (intercept first), by player count: scripts/kd-fit.py on
 * positions of easy self-play (scripts/kd-positions.c; 300 games at two players, 1000 at
 * three to five). Each fit was kept because hard with it beat hard with the hand-set
 * evaluation, sigmoid(lead / 4), in the arena (docs/ai.md, "Strength changes tried"). */
static const double kd_fit_weights[KD_MAX_PLAYERS + 1][KD_EVAL_FEATURES + 1] = {
    [2] = {0.0463, -0.0298, -0.1518, 0.0325, -0.1496, 0.3725, 0.0146, 0.1616, 0.5928},
    [3] = {-0.3812, -0.0106, -0.0420, -0.0446, -0.2273, 0.4373, 0.3131, 0.3067, 0.6653},
    [4] = {-0.5835, 0.3649, -0.1137, -0.0002, -0.1786, 0.4127, 0.5043, 0.2964, 0.5420},
    [5] = {-0.7958, 0.1873, -0.1530, -0.0227, -0.1364, 0.4745, 0.4497, 0.2075, 0.5904},
};

/* An estimate of `player`'s chance to win from what it sees: the logistic regression above. */
double kd_evaluate(const void *st, int player)
{
    const kd_state *s = st;
    if (player < 0 || player >= s->players || s->players < 2 || s->players > KD_MAX_PLAYERS)
        return 0.0;
    if (s->over) { /* the win, or a short game's shared one (KD-P6) */
        double share[KD_MAX_PLAYERS];
        kd_returns(s, share);
        return share[player];
    }
    const double *w = kd_fit_weights[s->players];
    double x[KD_EVAL_FEATURES];
    kd_eval_features(s, player, x);
    double z = w[0];
    for (int i = 0; i < KD_EVAL_FEATURES; i++)
        z += w[i + 1] * x[i];
    return 1.0 / (1.0 + exp(-z));
}

/* ---- observation tensor (for learning agents; layout in docs/python.md) ----
 * What one seat may see (the same things as its view, KD-10), as floats. Seats are relative:
 * slot 0 is the observer, slot k the seat k places to its left; slots past the players stay 0.
 * Cards are one-hot over the 26 card ids of internal.h. */

/* One field a line: */
/* clang-format off */
const rp_obs_field kd_obs_fields[] = {
    {"players", KD_OBS_PLAYERS, {4, 1, 1}, "one-hot: 2, 3, 4 or 5 players"},
    {"hand", KD_OBS_HAND, {KD_CARDS, 1, 1}, "1 for each card in your hand"},
    {"trick", KD_OBS_TRICK, {KD_MAX_PLAYERS, KD_CARDS, 1},
     "per relative seat: 1 for the card it played to the current trick"},
    {"trick_suit", KD_OBS_SUIT, {3, 1, 1}, "one-hot: trick suit not set yet, Walls, Cannons"},
    {"leader", KD_OBS_LEADER, {KD_MAX_PLAYERS, 1, 1},
     "one-hot relative seat that led (or leads) the current trick"},
    {"to_act", KD_OBS_TO_ACT, {KD_MAX_PLAYERS, 1, 1},
     "one-hot relative seat to play (all 0 once over)"},
    {"dealer", KD_OBS_DEALER, {KD_MAX_PLAYERS, 1, 1}, "one-hot relative seat that dealt this hand"},
    {"castle", KD_OBS_CASTLE, {KD_MAX_PLAYERS, 1, 1}, "per relative seat: castle value / 8"},
    {"score", KD_OBS_SCORE, {KD_MAX_PLAYERS, 1, 1}, "per relative seat: score / 31"},
    {"hand_size", KD_OBS_HELD, {KD_MAX_PLAYERS, 1, 1},
     "per relative seat: cards in hand / 13 (two players: table cards not counted)"},
    {"voids", KD_OBS_VOIDS, {KD_MAX_PLAYERS, 2, 1},
     "per relative seat: known void in Walls, in Cannons (KD-P2)"},
    {"played", KD_OBS_PLAYED, {KD_CARDS, 1, 1}, "1 for each card of this hand's finished tricks"},
    {"aside", KD_OBS_ASIDE, {KD_CARDS, 1, 1}, "1 for each card set aside face up this hand"},
    {"table_up", KD_OBS_TABLE_UP, {2, KD_PILES, KD_CARDS},
     "two players, per relative seat and pile: one-hot face-up card (all 0: pile empty)"},
    {"table_down", KD_OBS_TABLE_DOWN, {2, KD_PILES, 1},
     "two players, per relative seat and pile: 1 while a card lies face down under it"},
    {"last_trick", KD_OBS_LAST, {KD_MAX_PLAYERS, KD_CARDS, 1},
     "per relative seat: 1 for the card it played to the last finished trick"},
    {"last_trick_suit", KD_OBS_LAST_SUIT, {3, 1, 1},
     "one-hot suit of the last finished trick: none, Walls, Cannons (all 0: no last trick)"},
    {"last_trick_winner", KD_OBS_LAST_WINNER, {KD_MAX_PLAYERS + 1, 1, 1},
     "one-hot relative seat that won the last trick, or slot 5: it was set aside (KD-7)"},
    {"numbers", KD_OBS_NUMBERS, {3, 1, 1},
     "hand number / 10, trick number in the hand / 13, 1 once the game is over"},
    {"winner", KD_OBS_WINNER, {KD_MAX_PLAYERS, 1, 1}, "one-hot relative seat that won (once over)"},
};
/* clang-format on */
_Static_assert(sizeof kd_obs_fields / sizeof kd_obs_fields[0] == KD_OBS_FIELDS,
               "KD_OBS_FIELDS counts the fields");

/* The slot of `seat` as `player` sees the table. */
static int kd_obs_slot(const kd_state *s, int player, int seat)
{
    return seat >= player ? seat - player : seat - player + s->players;
}

static void kd_obs_cards(float *out, uint32_t mask)
{
    for (; mask; mask &= mask - 1)
        out[kd_lowest(mask)] = 1.0f;
}

/* The cards of a trick (current or last) from its leader on, by the slot of who played them. */
static void kd_obs_trick(const kd_state *s, int player, float *out, const uint8_t *cards, int len,
                         int leader)
{
    for (int i = 0; i < len; i++)
        out[kd_obs_slot(s, player, kd_seat_after(s, leader, i)) * KD_CARDS + cards[i]] = 1.0f;
}

void kd_observation_tensor(const void *st, int player, float *out)
{
    const kd_state *s = st;
    const int n = s->players;
    memset(out, 0, KD_OBS_SIZE * sizeof *out);
    out[KD_OBS_PLAYERS + n - 2] = 1.0f;
    kd_obs_cards(out + KD_OBS_HAND, s->hand[player]);
    kd_obs_trick(s, player, out + KD_OBS_TRICK, s->trick, s->trick_len, s->leader);
    out[KD_OBS_SUIT + s->suit] = 1.0f;
    out[KD_OBS_LEADER + kd_obs_slot(s, player, s->leader)] = 1.0f;
    if (!s->over)
        out[KD_OBS_TO_ACT + kd_obs_slot(s, player, kd_current_player(s))] = 1.0f;
    out[KD_OBS_DEALER + kd_obs_slot(s, player, s->dealer)] = 1.0f;
    for (int p = 0; p < n; p++) {
        const int k = kd_obs_slot(s, player, p);
        out[KD_OBS_CASTLE + k] = (float)s->castle[p] / 8.0f;
        out[KD_OBS_SCORE + k] = (float)s->score[p] / 31.0f;
        out[KD_OBS_HELD + k] = (float)kd_popcount(s->hand[p]) / 13.0f;
        out[KD_OBS_VOIDS + 2 * k] = (s->voids[p] & KD_VOID_WALLS) ? 1.0f : 0.0f;
        out[KD_OBS_VOIDS + 2 * k + 1] = (s->voids[p] & KD_VOID_CANNONS) ? 1.0f : 0.0f;
    }
    kd_obs_cards(out + KD_OBS_PLAYED, s->played);
    kd_obs_cards(out + KD_OBS_ASIDE, s->aside);
    if (n == 2)
        for (int p = 0; p < 2; p++) {
            const int k = kd_obs_slot(s, player, p);
            for (int i = 0; i < KD_PILES; i++) {
                if (s->pile_top[p][i] != KD_NONE)
                    out[KD_OBS_TABLE_UP + (k * KD_PILES + i) * KD_CARDS + s->pile_top[p][i]] = 1;
                out[KD_OBS_TABLE_DOWN + k * KD_PILES + i] = s->pile_under[p][i] != KD_NONE;
            }
        }
    if (s->last_len) {
        kd_obs_trick(s, player, out + KD_OBS_LAST, s->last, s->last_len, s->last_leader);
        out[KD_OBS_LAST_SUIT + s->last_suit] = 1.0f;
        out[KD_OBS_LAST_WINNER +
            (s->last_winner == KD_NONE ? KD_MAX_PLAYERS : kd_obs_slot(s, player, s->last_winner))] =
            1.0f;
    }
    out[KD_OBS_NUMBERS] = (float)s->hand_number / 10.0f;
    out[KD_OBS_NUMBERS + 1] = (float)kd_trick_in_hand(s) / 13.0f;
    out[KD_OBS_NUMBERS + 2] = s->over ? 1.0f : 0.0f;
    if (s->over && s->winner != KD_NONE) /* a short game's draw has none (KD-P6) */
        out[KD_OBS_WINNER + kd_obs_slot(s, player, s->winner)] = 1.0f;
}
