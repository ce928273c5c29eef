/* learn.c — Castle Danger for the AI and learning agents: determinize (nothing to resample),
 * the heuristic evaluation, and the observation tensor. */
#include "games/castle-danger/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- determinize ---- */

/* Full information and no chance: nothing to resample, for any viewer. */
void cd_determinize(void *st, int viewer, rp_rng *rng)
{
    (void)st;
    (void)viewer;
    (void)rng;
}

/* ---- evaluation ---- */

/* Rough number of moves `att` needs to hit the enemy King with some Cannon, whether that
 * Cannon has fired or not: sideways steps to the King's column, the shot's length, and 4 per
 * Wall in the way (a shot to clear it). 99 when `att` has no Cannon. */
static int king_attack_cost(const cd_state *s, int att)
{
    const uint64_t king = s->piece[att ^ 1][CD_KING];
    uint64_t cannons = s->piece[att][CD_CANNON];
    if (!king || !cannons)
        return 99;
    const int ksq = low_bit(king), kc = ksq % CD_COLS, kr = ksq / CD_COLS;
    int best = 99;
    for (; cannons; cannons &= cannons - 1) {
        const int c = low_bit(cannons), cc = c % CD_COLS, cr = c / CD_COLS;
        int cost = abs(cc - kc) + abs(kr - cr);
        const int lo = cr < kr ? cr : kr, hi = cr < kr ? kr : cr;
        for (int r = lo + 1; r < hi; r++)
            if ((s->walls >> (r * CD_COLS + kc)) & 1)
                cost += 4;
        if (cost < best)
            best = cost;
    }
    return best;
}

/* True when the side to move can hit the enemy King with one shot right now (CD-6, CD-7). */
static bool king_shot_now(const cd_state *s)
{
    const uint64_t king = s->piece[s->side ^ 1][CD_KING];
    const int step = s->side == CD_BLUE ? 7 : -7;
    for (uint64_t c = s->piece[s->side][CD_CANNON] & ~s->fired; c; c &= c - 1) {
        int sq = low_bit(c);
        for (int d = 1; d <= s->moves; d++) {
            sq += step;
            if (sq < 0 || sq >= CD_SQUARES)
                break;
            if ((king >> sq) & 1)
                return true;
            if ((s->walls >> sq) & 1)
                break;
        }
    }
    return false;
}

/* Side `side`'s standing: material (Wizards count most, being moves), Walls in front of its
 * King, and how close the enemy is to a shot at it given the moves the enemy will have. */
static double side_score(const cd_state *s, int side)
{
    const int enemy = side ^ 1;
    const int wizards = count_bits(s->piece[side][CD_WIZARD]);
    double v = 1.5 * wizards + 1.2 * count_bits(s->piece[side][CD_CANNON]) +
               0.8 * count_bits(s->piece[side][CD_BUILDER]);
    const uint64_t king = s->piece[side][CD_KING];
    if (king) {
        const int ksq = low_bit(king), kc = ksq % CD_COLS;
        const uint64_t file = FILE_A << kc;
        const uint64_t front = side == CD_BLUE ? file & ~((2ULL << ksq) - 1) & BLUE_SIDE
                                               : file & ((1ULL << ksq) - 1) & RED_SIDE;
        const int cover = count_bits(front & s->walls);
        v += 0.6 * (cover > 2 ? 2 : cover);
        /* walls on the neighbouring files slow a Cannon sliding over */
        v += 0.15 * count_bits(adjacent(front) & ~file & s->walls);
        const int budget = s->side == enemy ? s->moves : turn_moves(s, enemy);
        const int margin = budget - king_attack_cost(s, enemy);
        v -= margin >= 0 ? 4.0 + 0.2 * margin : 4.0 * exp(margin / 2.5);
    }
    return v;
}

/* A heuristic share of the win in [0,1] for `player` (everything is visible to both). */
double cd_evaluate(const void *st, int player)
{
    const cd_state *s = st;
    if (player < 0 || player > 1)
        return 0.5;
    if (s->result != CD_ONGOING) {
        double r[2];
        cd_returns(s, r);
        return r[player];
    }
    if (king_shot_now(s))
        return s->side == player ? 0.99 : 0.01;
    double diff = side_score(s, player) - side_score(s, player ^ 1);
    const double value = 1.0 / (1.0 + exp(-diff / 3.0));
    return value < 0.02 ? 0.02 : value > 0.98 ? 0.98 : value;
}

/* ---- observation tensor (for learning agents; layout in internal.h and docs/python.md) ---- */

/* One field a line: */
/* clang-format off */
const rp_obs_field cd_obs_fields[] = {
    {"board", CD_OBS_PLANES, {12, CD_ROWS, CD_COLS},
     "planes of the board (row = rank - 1, column a = 0), 1 where: your King, Wizard, Builder, "
     "Cannon; the opponent's King, Wizard, Builder, Cannon; a Wall; your Fire marker; the "
     "opponent's Fire marker; a Cannon that has fired since its owner's turn began"},
    {"to_move", CD_OBS_TO_MOVE, {2, 1, 1}, "one-hot: you, the opponent are to move"},
    {"turn", CD_OBS_TURN, {5, 1, 1},
     "moves left this turn / 27, 1 while the add step is open, turn number / 100, turn limit "
     "/ 100 (0: none), 1 under tournament=1"},
    {"result", CD_OBS_RESULT, {4, 1, 1}, "one-hot: ongoing, you won, the opponent won, draw"},
    {"seat", CD_OBS_SEAT, {1, 1, 1}, "1 when you are Red (seat 1), 0 when Blue"},
};
/* clang-format on */

static void cd_obs_plane(float *plane, uint64_t b)
{
    for (; b; b &= b - 1)
        plane[low_bit(b)] = 1.0f;
}

void cd_observation_tensor(const void *st, int player, float *out)
{
    const cd_state *s = st;
    const int them = player ^ 1;
    memset(out, 0, CD_OBS_SIZE * sizeof *out);
    for (int k = 0; k < CD_KINDS; k++) {
        cd_obs_plane(out + (CD_PLANE_MINE + k) * CD_SQUARES, s->piece[player][k]);
        cd_obs_plane(out + (CD_PLANE_THEIRS + k) * CD_SQUARES, s->piece[them][k]);
    }
    cd_obs_plane(out + CD_PLANE_WALLS * CD_SQUARES, s->walls);
    cd_obs_plane(out + CD_PLANE_MY_FIRE * CD_SQUARES, s->fire[player]);
    cd_obs_plane(out + CD_PLANE_THEIR_FIRE * CD_SQUARES, s->fire[them]);
    cd_obs_plane(out + CD_PLANE_FIRED * CD_SQUARES, s->fired);
    out[CD_OBS_TO_MOVE + (s->side == player ? 0 : 1)] = 1.0f;
    out[CD_OBS_TURN] = (float)s->moves / (float)MAX_MOVES;
    out[CD_OBS_TURN + 1] = s->add_open ? 1.0f : 0.0f;
    out[CD_OBS_TURN + 2] = (float)s->turn / 100.0f;
    out[CD_OBS_TURN + 3] = (float)s->limit / 100.0f;
    out[CD_OBS_TURN + 4] = s->tournament ? 1.0f : 0.0f;
    const int won = s->result == CD_BLUE_WON ? CD_BLUE : s->result == CD_RED_WON ? CD_RED : -1;
    out[CD_OBS_RESULT + (s->result == CD_ONGOING ? 0
                         : s->result == CD_DRAW  ? 3
                         : won == player         ? 1
                                                 : 2)] = 1.0f;
    out[CD_OBS_SEAT] = (float)player;
}
