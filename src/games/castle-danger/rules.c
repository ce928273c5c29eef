/* rules.c — Castle Danger's rules on bitboards, the hot path: setup, the turn flow, legal
 * actions and apply, with an optional narration of what an action did that the compiler
 * removes from apply (events_json in view.c reads it). */
#include "games/castle-danger/internal.h"

#include <string.h>

#include "core/check.h"

/* ---- what stands where ---- */

/* What stands on square sq, and whose it is (-1 for a Wall or nothing). */
int cd_thing_at(const cd_state *s, int sq, int *owner)
{
    const uint64_t bit = 1ULL << sq;
    for (int side = 0; side < 2; side++) {
        *owner = side;
        for (int k = 0; k < CD_KINDS; k++)
            if (s->piece[side][k] & bit)
                return k;
        if (s->fire[side] & bit)
            return T_FIRE;
    }
    *owner = -1;
    return (s->walls & bit) ? T_WALL : T_NONE;
}

/* The functions that take a story are inlined into apply, where the story is NULL, so the
 * compiler removes every narration from the hot path. */
#define NARRATED static inline RP_FORCE_INLINE

/* Record a note when someone is listening (events_json); apply passes NULL. */
NARRATED void tell(cd_story *story, cd_note note)
{
    if (story && story->count < CD_MAX_NOTES)
        story->note[story->count++] = note;
}

/* ---- turn flow ---- */

/* CD-3: the start of a turn: own Fire removed, own Cannons reset, 3 + 3 x Wizards moves. */
NARRATED void start_turn(cd_state *s, cd_story *story)
{
    const int side = s->side;
    if (story && s->fire[side])
        tell(story, (cd_note){.kind = N_FIRE_OUT,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = -1,
                              .squares = s->fire[side]});
    if (story && (s->fired & s->piece[side][CD_CANNON]))
        tell(story, (cd_note){.kind = N_RESET,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = -1,
                              .squares = s->fired & s->piece[side][CD_CANNON]});
    s->fire[side] = 0;
    s->fired &= ~s->piece[side][CD_CANNON];
    s->moves = (uint8_t)turn_moves(s, side);
    s->add_open = 1;
    if (story)
        tell(story,
             (cd_note){
                 .kind = N_TURN, .side = (uint8_t)side, .from = -1, .to = -1, .count = s->moves});
}

/* The end of a turn; CD-15: Red's turn number `limit` ending without a King hit is a draw. */
NARRATED void end_turn(cd_state *s, bool chosen, cd_story *story)
{
    if (story)
        tell(story, (cd_note){.kind = N_END,
                              .side = s->side,
                              .from = -1,
                              .to = -1,
                              .what = chosen,
                              .count = s->moves});
    if (s->side == CD_RED && s->limit && s->turn >= s->limit) {
        s->result = CD_DRAW;
        s->moves = 0;
        s->add_open = 0;
        tell(story, (cd_note){.kind = N_OVER, .side = s->side, .from = -1, .to = -1});
        return;
    }
    s->side ^= 1;
    if (s->side == CD_BLUE && s->turn < MAX_TURN)
        s->turn++;
    start_turn(s, story);
}

/* ---- setup ---- */

/* CD-1: the standard setup, Blue to move with its first turn started. CD-16: no turn limit
 * unless asked; CD-8: 25 under tournament=1 (CD-P5). */
int cd_init(void *st, const rp_config *cfg, rp_error *err)
{
    cd_state *s = st;
    if (cfg->players != 2)
        return rp_fail(err, RP_EINVAL, "Castle Danger is for exactly 2 players");
    const int64_t asked = cfg->value[OPT_LIMIT], tournament = cfg->value[OPT_TOURNAMENT];
    if (asked < 0 || asked > MAX_LIMIT)
        return rp_fail(err, RP_EINVAL, "turn-limit=%lld is out of range 0..%d", (long long)asked,
                       MAX_LIMIT);
    if (tournament < 0 || tournament > 1)
        return rp_fail(err, RP_EINVAL, "tournament=%lld: expected 0 or 1", (long long)tournament);
    memset(s, 0, sizeof *s);
    s->limit = (uint16_t)(asked ? asked : tournament ? CD_TOURNAMENT_LIMIT : 0);
    s->tournament = (uint8_t)tournament;
    s->turn = 1;
    s->piece[CD_BLUE][CD_KING] = 1ULL << CD_SQ(2, 1);
    s->piece[CD_BLUE][CD_WIZARD] = 1ULL << CD_SQ(4, 1);
    s->piece[CD_RED][CD_KING] = 1ULL << CD_SQ(4, 9);
    s->piece[CD_RED][CD_WIZARD] = 1ULL << CD_SQ(2, 9);
    s->walls = (1ULL << CD_SQ(2, 2)) | (1ULL << CD_SQ(4, 2)) | (1ULL << CD_SQ(4, 8)) |
               (1ULL << CD_SQ(2, 8));
    s->side = CD_BLUE;
    start_turn(s, NULL);
    return RP_OK;
}

/* Always two: Blue (seat 0) and Red (seat 1). */
int cd_num_players(const void *st)
{
    (void)st;
    return 2;
}

/* The side to move, or RP_TERMINAL once a King is hit or the turn limit is reached. */
int cd_current_player(const void *st)
{
    const cd_state *s = st;
    return s->result != CD_ONGOING ? RP_TERMINAL : s->side;
}

/* As CD-15 counts: Blue's and Red's n-th turns are turn n. */
int cd_turn_number(const void *st)
{
    const cd_state *s = st;
    return (int)s->turn;
}

/* ---- legal actions and apply ---- */

/* Whether b has fewer than n bits (n a small constant): clearing the lowest bit n - 1 times
 * leaves nothing exactly then. Cheaper than a count for the supply's 2, 4 and 8 (CD-2). */
static inline bool fewer_than(uint64_t b, int n)
{
    for (int i = 1; i < n; i++)
        b &= b - 1;
    return b == 0;
}

/* Every legal action: end (CD-14), the add step, moves, builds, removals and shots, in that
 * order (the order is part of play: a seeded pick takes the i-th). Written through a pointer,
 * so each action is one store and one increment. */
int cd_legal_actions(const void *st, rp_action *out)
{
    const cd_state *s = st;
    if (s->result != CD_ONGOING)
        return 0;
    const int side = s->side;
    /* occupied(s) and side_pieces(s, side) with each board read once; the two sides' pieces
     * never share a square, so blue ^ red ^ mine is the opponent's (one select, not two) */
    const uint64_t blue = side_pieces(s, CD_BLUE), red = side_pieces(s, CD_RED);
    const uint64_t occ = blue | red | s->walls | s->fire[0] | s->fire[1];
    const uint64_t mine = side == CD_BLUE ? blue : red, theirs = blue ^ red ^ mine;
    rp_action *o = out;
    *o++ = A_END;
    if (s->add_open && !(occ & portal[side]) && /* CD-3: add_cost(s), the boards at hand */
        s->moves >= (count_bits(mine) >= count_bits(theirs) ? 2 : 0)) {
#pragma GCC unroll 3
        for (int k = CD_WIZARD; k <= CD_CANNON; k++)
            if (fewer_than(s->piece[side][k], kind_max[k])) /* CD-2: supply left */
                *o++ = (rp_action)(A_ADD + k - 1);
    }
    /* CD-4: the empty squares of the own side; side_mask[side] as constants, so the compiler
     * knows bit 63 is clear and drops shift_dir's mask of the board for the step up */
    const uint64_t free_own = (side == CD_BLUE ? BLUE_SIDE : RED_SIDE) & ~occ;
    /* unrolled, so each direction's shift is a constant (a switch per square otherwise) */
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        for (uint64_t t = shift_dir(mine, d) & free_own; t; t &= t - 1) {
            const int from = low_bit(t) - dir_delta[d];
            *o++ = (rp_action)(A_MOVE + 4 * from + d);
        }
    }
    const uint64_t builders = s->piece[side][CD_BUILDER];
    if (builders) {
        const uint64_t reach = adjacent(builders);
        const uint64_t sites = reach & GRASS & ~occ;   /* CD-5, CD-11 */
        if (sites && count_bits(s->walls) < MAX_WALLS) /* CD-2: the 20 Walls are shared */
            for (uint64_t t = sites; t; t &= t - 1)
                *o++ = (rp_action)(A_BUILD + low_bit(t));
        for (uint64_t t = reach & s->walls; t; t &= t - 1)
            *o++ = (rp_action)(A_REMOVE + low_bit(t));
    }
    const uint64_t cannons = s->piece[side][CD_CANNON] & ~s->fired;
    if (!cannons)
        return (int)(o - out);
    const int step = side == CD_BLUE ? 7 : -7;
    for (uint64_t c = cannons; c; c &= c - 1) { /* CD-6 */
        const int from = low_bit(c);
        int sq = from;
        for (int dist = 1; dist <= s->moves; dist++) {
            sq += step;
            if (sq < 0 || sq >= CD_SQUARES)
                break;
            if ((RIVER >> sq) & 1)
                continue;
            *o++ = (rp_action)(A_FIRE + 8 * from + dist - 1);
            if ((s->walls >> sq) & 1)
                break;
        }
    }
    return (int)(o - out);
}

/* Take away whatever stands on `bit` (CD-6); returns the side whose King stood there, or -1. */
static int clear_square(cd_state *s, uint64_t bit)
{
    int king_owner = -1;
    for (int side = 0; side < 2; side++) {
        if (s->piece[side][CD_KING] & bit)
            king_owner = side;
        for (int k = 0; k < CD_KINDS; k++)
            s->piece[side][k] &= ~bit;
        s->fire[side] &= ~bit;
    }
    s->walls &= ~bit;
    s->fired &= ~bit;
    return king_owner;
}

/* CD-6, CD-7, CD-11: a shot from `from` landing `dist` squares toward the opponent. */
NARRATED void fire_cannon(cd_state *s, int from, int dist, cd_story *story)
{
    const int side = s->side;
    const int to = from + (side == CD_BLUE ? 7 : -7) * dist;
    const uint64_t bit = 1ULL << to;
    s->fired |= 1ULL << from;
    s->moves = (uint8_t)(s->moves - dist);
    if (story) {
        int owner;
        const int what = cd_thing_at(s, to, &owner);
        tell(story, (cd_note){.kind = N_FIRE,
                              .side = (uint8_t)side,
                              .from = (int8_t)from,
                              .to = (int8_t)to,
                              .count = (int16_t)dist,
                              .left = s->moves});
        if (what != T_NONE)
            tell(story, (cd_note){.kind = N_HIT,
                                  .side = (uint8_t)side,
                                  .from = (int8_t)from,
                                  .to = (int8_t)to,
                                  .what = (int8_t)what,
                                  .owner = (int8_t)owner});
    }
    const int king_owner = clear_square(s, bit);
    if (!((portal[0] | portal[1]) & bit)) {
        s->fire[side] |= bit;
        tell(story, (cd_note){.kind = N_BURN, .side = (uint8_t)side, .from = -1, .to = (int8_t)to});
    }
    if (king_owner >= 0) {
        s->result = king_owner == CD_BLUE ? CD_RED_WON : CD_BLUE_WON;
        s->moves = 0;
        tell(story, (cd_note){.kind = N_OVER,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = (int8_t)to,
                              .owner = (int8_t)king_owner});
    }
}

/* The two squares of a step, bit(from) | bit(from + dir_delta[d]), by the action's offset
 * 4*from + d from A_MOVE, so apply flips a piece's two bits with one load instead of decoding.
 * Only legal steps read it, and those stay on the board (CD-4); for a step off the board the
 * entry is meaningless (the "& 63" only keeps the constant's shift defined). A test compares
 * every on-board entry with shift_dir. */
#define STEP_TO(f, d) ((f) + ((d) == 0 ? 7 : (d) == 1 ? 1 : (d) == 2 ? -7 : -1))
#define STEP_SPAN(f, d) ((1ULL << (f)) | (1ULL << (STEP_TO(f, d) & 63)))
#define STEPS_FROM(f) STEP_SPAN(f, 0), STEP_SPAN(f, 1), STEP_SPAN(f, 2), STEP_SPAN(f, 3)
#define STEPS_RANK(f)                                                                              \
    STEPS_FROM(f), STEPS_FROM((f) + 1), STEPS_FROM((f) + 2), STEPS_FROM((f) + 3),                  \
        STEPS_FROM((f) + 4), STEPS_FROM((f) + 5), STEPS_FROM((f) + 6)
const uint64_t cd_step_span[A_BUILD - A_MOVE] = {
    STEPS_RANK(0),  STEPS_RANK(7),  STEPS_RANK(14), STEPS_RANK(21), STEPS_RANK(28),
    STEPS_RANK(35), STEPS_RANK(42), STEPS_RANK(49), STEPS_RANK(56),
};

/* CD-4: one step (A_MOVE + 4*from + d) of a piece of the side to move; its fired mark travels
 * with a Cannon (CD-12). The target is empty, so the only piece board holding a bit of the
 * span is the mover's, and so is the fired board. */
NARRATED void move_piece(cd_state *s, rp_action action, cd_story *story)
{
    const uint64_t span = cd_step_span[action - A_MOVE];
    uint64_t *kinds = s->piece[s->side];
    int kind = 0;
    while (kind < CD_KINDS - 1 && !(kinds[kind] & span))
        kind++;
    kinds[kind] ^= span;
    if (s->fired & span)
        s->fired ^= span;
    s->moves--;
    if (story) {
        const int from = (int)(action - A_MOVE) >> 2;
        tell(story, (cd_note){.kind = N_MOVE,
                              .side = s->side,
                              .from = (int8_t)from,
                              .to = (int8_t)(from + dir_delta[(action - A_MOVE) & 3]),
                              .what = (int8_t)kind,
                              .count = 1,
                              .left = s->moves});
    }
}

/* Play a legal action, telling `story` (may be NULL) what happened: pay its moves, close the
 * add step (CD-P4), and end the turn when the moves run out (CD-3). Moves, most actions,
 * are tested first. */
NARRATED void play(cd_state *s, rp_action action, cd_story *story)
{
    const int side = s->side;
    if (action - A_MOVE < (rp_action)(A_BUILD - A_MOVE)) { /* unsigned: false below A_MOVE too */
        move_piece(s, action, story);
        s->add_open = 0;
        if (s->moves == 0) /* a step hits nothing: the game goes on */
            end_turn(s, false, story);
        return;
    }
    if (action == A_END) {
        end_turn(s, true, story);
        return;
    }
    if (action < A_MOVE) {
        const int kind = (int)action - A_ADD + 1, cost = add_cost(s); /* CD-13: before placing */
        s->moves = (uint8_t)(s->moves - cost);
        s->piece[side][kind] |= portal[side];
        tell(story, (cd_note){.kind = N_ADD,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = (int8_t)low_bit(portal[side]),
                              .what = (int8_t)kind,
                              .count = (int16_t)cost,
                              .left = s->moves});
    } else if (action < A_FIRE) {
        const bool build = action < A_REMOVE;
        const int sq = (int)action - (build ? A_BUILD : A_REMOVE);
        s->walls ^= 1ULL << sq;
        s->moves--;
        tell(story, (cd_note){.kind = build ? N_BUILD : N_REMOVE,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = (int8_t)sq,
                              .count = 1,
                              .left = s->moves});
    } else {
        fire_cannon(s, (int)(action - A_FIRE) >> 3, (int)((action - A_FIRE) & 7) + 1, story);
    }
    s->add_open = 0;
    if (s->result == CD_ONGOING && s->moves == 0)
        end_turn(s, false, story);
}

void cd_apply(void *st, rp_action action)
{
    play(st, action, NULL);
}

/* The winner takes 1; a draw at the turn limit gives 1/2 each (CD-15). */
void cd_returns(const void *st, double *out)
{
    const cd_state *s = st;
    out[0] = out[1] = 0.5;
    if (s->result == CD_BLUE_WON) {
        out[0] = 1;
        out[1] = 0;
    } else if (s->result == CD_RED_WON) {
        out[0] = 0;
        out[1] = 1;
    }
}

/* play with a story, for events_json (view.c): the same steps apply takes, told. */
void cd_play_told(cd_state *s, rp_action action, cd_story *story)
{
    play(s, action, story);
}
