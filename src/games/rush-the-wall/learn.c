/* learn.c — Rush the Wall for the AI and learning agents: determinize, observe_action,
 * evaluate and the observation tensor. */
#include "games/rush-the-wall/internal.h"

#include <string.h>

/* ---- the AI hooks: determinize, observe_action, evaluate ---- */

/* Resample one other clan's unseen warriors: its hidden slots, its hand, and which of the
 * rest it drew, from the kinds not turned up this round. */
static void determinize_clan(rtw_state *s, int c, rp_rng *rng)
{
    int shown = shown_slots(s);
    uint16_t known = 0;
    for (int i = 0; i < shown; i++)
        known |= BIT(s->slot[c][i]);
    uint8_t pool[RTW_KINDS];
    int n = 0;
    for (int k = 0; k < RTW_KINDS; k++)
        if (!(known & BIT(k)))
            pool[n++] = (uint8_t)k;
    rp_rng_shuffle_u8(rng, pool, n);
    int next = 0;
    uint16_t drawn = known;
    for (int i = shown; i < RTW_SLOTS; i++)
        if (s->slot[c][i] != RTW_NONE) {
            s->slot[c][i] = pool[next++];
            drawn |= BIT(s->slot[c][i]);
        }
    int hand_size = popcount(s->hand[c]);
    s->hand[c] = 0;
    for (int i = 0; i < hand_size; i++)
        s->hand[c] |= BIT(pool[next++]);
    drawn |= s->hand[c];
    int want = is_player(s, c) ? RTW_DRAW : RTW_SLOTS;
    while (popcount(drawn) < want)
        drawn |= BIT(pool[next++]);
    s->drawn[c] = drawn;
}

/* The undrawn forts' order and the generator (every later warrior draw), anew. */
static void redraw_future(rtw_state *s, rp_rng *rng)
{
    /* The undrawn forts are known as a set, not in order: sort them before shuffling so the
     * result never depends on the hidden order it replaces. */
    int drawn = RTW_SLOTS * (s->round + 1);
    uint8_t *undrawn = s->deck + drawn;
    for (int i = 1; i < RTW_FORTS - drawn; i++)
        for (int j = i; j > 0 && undrawn[j - 1] > undrawn[j]; j--) {
            uint8_t t = undrawn[j];
            undrawn[j] = undrawn[j - 1];
            undrawn[j - 1] = t;
        }
    rp_rng_shuffle_u8(rng, undrawn, RTW_FORTS - drawn);
    uint64_t seed = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    rp_rng_seed(&s->rng, seed, rp_rng_next(rng));
}

/* Every clan not in `viewers` (neutral clans included) resampled, then the undrawn forts. */
void rtw_determinize_seats(void *st, uint32_t viewers, rp_rng *rng)
{
    rtw_state *s = st;
    for (int c = 0; c < s->clans; c++)
        if (!(viewers & 1u << c))
            determinize_clan(s, c, rng);
    redraw_future(s, rng);
}

void rtw_determinize(void *st, int viewer, rp_rng *rng)
{
    /* the spectator (RP_SPECTATOR) sees no clan's own */
    rtw_determinize_seats(st, viewer >= 0 ? 1u << viewer : 0u, rng);
}

/* What no player knows: the neutral clans' warriors (RW-11: random, face down, nobody's to
 * see), the undrawn forts' order and the generator. */
void rtw_reseed(void *st, rp_rng *rng)
{
    rtw_state *s = st;
    for (int c = s->players; c < s->clans; c++)
        determinize_clan(s, c, rng);
    redraw_future(s, rng);
}

/* Other clans see that a placement was made, not which warrior (RW-5). */
rp_action rtw_observe_action(const void *st, rp_action action, int observer)
{
    const rtw_state *s = st;
    bool placing = s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE;
    return placing && observer != s->actor ? RTW_A_HIDDEN : action;
}

/* A clan's fort points, as the rules count them (RW-12). */
double rtw_score(const void *st, int seat)
{
    return fort_total(st, seat);
}

/* A cheap estimate for `player` from public facts: fort points against the best rival clan
 * (neutrals count as rivals only in a solo game), a nudge for face-up strength, and the
 * three-Legion threat. */
double rtw_evaluate(const void *st, int player)
{
    const rtw_state *s = st;
    if (s->phase == RTW_OVER) {
        double r[RP_MAX_PLAYERS];
        rtw_returns(s, r);
        return r[player];
    }
    int rivals_end = s->players == 1 ? s->clans : s->players;
    int best = -1000, best_up = 0, best_legions = 0;
    for (int c = 0; c < rivals_end; c++) {
        if (c == player)
            continue;
        int t = fort_total(s, c);
        if (t > best) {
            best = t;
            best_up = strength_of(s, s->up[c]);
        }
        if (is_player(s, c) && legions(s, c) > best_legions)
            best_legions = legions(s, c);
    }
    double diff = fort_total(s, player) - best;
    diff += 0.1 * (strength_of(s, s->up[player]) - best_up);
    double v = 0.5 + diff / 40.0;
    if (legions(s, player) == RTW_LEGION_WIN - 1)
        v += 0.1;
    if (best_legions == RTW_LEGION_WIN - 1)
        v -= 0.1;
    return v < 0.02 ? 0.02 : v > 0.98 ? 0.98 : v;
}

const rp_obs_field rtw_obs_fields[] = {
    {"game",
     RTW_OBS_GAME,
     {RTW_OBS_STRENGTHS - RTW_OBS_GAME, 1, 1},
     "one-hot your seat 0..3; 1 for the vogel variant; one-hot players 1..4; one-hot neutral "
     "clans 0..3; one-hot round 1..3; one-hot turn 1..6; one-hot phase (plan, zvord-place, "
     "qween-pick, druhid-pick, signal-pick, tax-pick, axx-pick, horsie-pick, over); once over, "
     "1 for each winning clan (relative) and 1 when it won by three Legions (RW-18)"},
    {"strengths",
     RTW_OBS_STRENGTHS,
     {RTW_KINDS, 1, 1},
     "the card set's warrior strengths / 30 (Filchy, Qween, Dru'hid, Zvord, Arch'r, Horsie, "
     "Axx, Chariott, Laird)"},
    {"fort_set",
     RTW_OBS_FORT_SET,
     {RTW_FORTS, RTW_OBS_FORT, 1},
     "the card set's 18 forts in canonical order (fort ids): one-hot kind (unwary, signal, "
     "tax, legion, dinary) and absolute value / 30 (a legion's value is negative)"},
    {"wall",
     RTW_OBS_WALL,
     {RTW_SLOTS, RTW_OBS_FORT, 1},
     "The Wall's positions 1..6: the fort there as one-hot kind and absolute value / 30, all "
     "0 once fought over"},
    {"turn",
     RTW_OBS_TURN,
     {RTW_OBS_DISCARDED - RTW_OBS_TURN, 1, 1},
     "one-hot the next slot to fill 1..6 (plan and zvord-place only); one-hot clan to act "
     "(relative; none when over); one-hot this turn's capturer (relative); the fort it took "
     "(one-hot kind, absolute value / 30); 1 for each warrior kind kept face up (Unwary, Axx)"},
    {"discarded",
     RTW_OBS_DISCARDED,
     {RTW_FORTS, 1, 1},
     "discarded forts: how many of each label, at the label's first fort id"},
    {"own",
     RTW_OBS_OWN,
     {2, RTW_KINDS, 1},
     "your hand (warriors still to place) then this round's drawn warriors: 1 per kind"},
    {"clans",
     RTW_OBS_CLANS,
     {RTW_MAX_CLANS, RTW_OBS_CLAN, 1},
     "per clan (relative; all 0 when absent): 1 present; 1 per face-up warrior kind; the slots "
     "1..6, each one-hot warrior kind then 1 when placed face down (all 0 when empty); hand "
     "size / 9; last round's six warriors one-hot by kind; forts held: how many of each label "
     "at the label's first fort id"},
};
/* clang-format on */

/* The first fort id of the card set with the same kind and value as f (f's label). */
static int fort_label_id(const rtw_cards *c, int f)
{
    for (int g = 0; g < f; g++)
        if (c->fort_kind[g] == c->fort_kind[f] && c->fort_value[g] == c->fort_value[f])
            return g;
    return f;
}

/* Fort f (or nothing for RTW_NONE) as one-hot kind and absolute value / 30. */
static void obs_fort(const rtw_cards *c, int f, float *out)
{
    if (f == RTW_NONE)
        return;
    out[c->fort_kind[f]] = 1.0f;
    const int v = c->fort_value[f];
    out[RTW_FORT_KINDS] = (float)(v < 0 ? -v : v) / 30.0f;
}

static void obs_fort_counts(const rtw_cards *c, uint32_t mask, float *out)
{
    for (; mask; mask &= mask - 1)
        out[fort_label_id(c, lowest_bit(mask))] += 1.0f;
}

static void obs_warriors(uint32_t mask, float *out)
{
    for (; mask; mask &= mask - 1)
        out[lowest_bit(mask)] = 1.0f;
}

/* The observer's slot for clan c: players rotated to start at `player`, neutrals after. */
static int obs_clan(const rtw_state *s, int player, int c)
{
    return c < s->players ? (c - player + s->players) % s->players : c;
}

static void obs_clan_row(const rtw_state *s, int player, int c, float *out)
{
    const int shown = shown_slots(s);
    out[0] = 1.0f;
    obs_warriors(s->up[c], out + 1);
    float *slots = out + 1 + RTW_KINDS;
    for (int i = 0; i < RTW_SLOTS && s->slot[c][i] != RTW_NONE; i++) {
        const bool seen = i < shown || c == player;
        slots[i * RTW_OBS_SLOT + (seen ? s->slot[c][i] : RTW_KINDS)] = 1.0f;
    }
    float *rest = slots + RTW_SLOTS * RTW_OBS_SLOT;
    rest[0] = (float)popcount(s->hand[c]) / 9.0f;
    for (int i = 0; s->round > 0 && i < RTW_SLOTS; i++)
        rest[1 + i * RTW_KINDS + s->prev[c][i]] = 1.0f;
    obs_fort_counts(&s->cards, s->forts[c], rest + 1 + RTW_SLOTS * RTW_KINDS);
}

static void obs_game(const rtw_state *s, int player, float *out)
{
    out[player] = 1.0f;
    out[4] = s->variant ? 1.0f : 0.0f;
    out[5 + s->players - 1] = 1.0f;
    out[9 + s->neutrals] = 1.0f;
    out[13 + s->round] = 1.0f;
    out[16 + s->turn] = 1.0f;
    out[22 + s->phase] = 1.0f;
    if (s->phase != RTW_OVER)
        return;
    for (uint32_t m = rtw_winners(s); m; m &= m - 1)
        out[22 + RTW_PHASES + obs_clan(s, player, lowest_bit(m))] = 1.0f;
    out[22 + RTW_PHASES + 4] = s->winner >= 0 ? 1.0f : 0.0f;
}

void rtw_observation_tensor(const void *st, int player, float *out)
{
    const rtw_state *s = st;
    memset(out, 0, RTW_OBS_SIZE * sizeof *out);
    obs_game(s, player, out + RTW_OBS_GAME);
    for (int k = 0; k < RTW_KINDS; k++)
        out[RTW_OBS_STRENGTHS + k] = (float)s->cards.strength[k] / 30.0f;
    for (int f = 0; f < RTW_FORTS; f++)
        obs_fort(&s->cards, f, out + RTW_OBS_FORT_SET + f * RTW_OBS_FORT);
    for (int i = 0; i < RTW_SLOTS; i++)
        obs_fort(&s->cards, s->wall[i], out + RTW_OBS_WALL + i * RTW_OBS_FORT);
    float *turn = out + RTW_OBS_TURN;
    if (s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE)
        turn[s->next_slot] = 1.0f;
    if (s->phase != RTW_OVER)
        turn[RTW_SLOTS + obs_clan(s, player, s->actor)] = 1.0f;
    if (s->capturer >= 0)
        turn[RTW_SLOTS + 4 + obs_clan(s, player, s->capturer)] = 1.0f;
    obs_fort(&s->cards, s->captured, turn + RTW_SLOTS + 8);
    obs_warriors(s->keep, turn + RTW_SLOTS + 8 + RTW_OBS_FORT);
    obs_fort_counts(&s->cards, s->gone, out + RTW_OBS_DISCARDED);
    obs_warriors(s->hand[player], out + RTW_OBS_OWN);
    obs_warriors(s->drawn[player], out + RTW_OBS_OWN + RTW_KINDS);
    for (int c = 0; c < s->clans; c++)
        obs_clan_row(s, player, c, out + RTW_OBS_CLANS + obs_clan(s, player, c) * RTW_OBS_CLAN);
}
