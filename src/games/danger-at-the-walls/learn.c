/* learn.c — Danger at the Walls for search and learning: determinize (deal what a viewer
 * cannot see at random, consistently with their view), the evaluation the AI uses, and the
 * observation tensor (layout in internal.h, docs/python.md). */
#include <string.h>

#include "core/check.h"
#include "core/rng_internal.h"
#include "games/danger-at-the-walls/internal.h"

/* ------------------------------------------------------------------------------------------ */
/* Determinizing                                                                              */

/* Depths (cards above, in the 21-card deck after setup) of the two main-deck Flags, drawn
 * from the DW-1 insertion rule. */
static void sample_flag_depths(rp_rng *rng, int depth[2])
{
    const int a = 9 + (int)rp__rng_below(rng, 3);
    const int b = 10 + (int)rp__rng_below(rng, 11);
    depth[0] = a < b ? a : a + 1;
    depth[1] = b;
}

/* The hidden cards, dealt out for determinizing: hands and personal decks of the hidden seats,
 * the main deck's other cards and the depths of its Flags. */
typedef struct dw_split {
    uint8_t hand[2][DW_FACES], personal[2][DW_FACES], main_other[DW_FACES];
    uint32_t personal_set[2]; /* the faces of personal[q] (each 0 or 1), a bit each */
    int flag_depth[2];
} dw_split;
_Static_assert(DW_FACES <= 32, "a set of faces is a 32-bit word, a bit a face");

/* Choose personal_n[q] distinct faces of q's personal deck among the cards left in `rest`. */
static bool pick_personal(const dw_state *s, int q, uint8_t *rest, rp_rng *rng, dw_split *out)
{
    uint8_t elig[DW_PERSONAL];
    int ne = 0;
    for (int f = 0; f < DW_FACES; f++)
        if (dw_personal0[q][f] && rest[f])
            elig[ne++] = (uint8_t)f;
    const int r = s->personal_n[q];
    if (ne < r)
        return false;
    for (int i = 0; i < r; i++) {
        const int j = i + (int)rp__rng_below(rng, (uint32_t)(ne - i));
        const uint8_t t = elig[i];
        elig[i] = elig[j];
        elig[j] = t;
        out->personal[q][elig[i]] = 1;
        out->personal_set[q] |= 1u << elig[i];
        rest[elig[i]]--;
    }
    return true;
}

/* Hidden seat q's hand takes the cards gone from its personal deck that it has not played
 * (they can be nowhere else); returns the hand's slots left for other cards, or -1. */
static int take_personal_origins(const dw_state *s, int q, uint8_t played[2][DW_FACES],
                                 uint8_t *rest, dw_split *out)
{
    int need = 0;
    for (int f = 0; f < DW_FACES; f++) {
        const int origin = dw_personal0[q][f] - out->personal[q][f] - played[q][f];
        if (origin <= 0)
            continue;
        if (origin > rest[f])
            return -1;
        out->hand[q][f] = (uint8_t)origin;
        rest[f] = (uint8_t)(rest[f] - origin);
        need += origin;
    }
    const int slots = s->hand_n[q] - need;
    return slots < 0 ? -1 : slots;
}

/* Room past the end of a list that list_run may write over. */
#define RUN_SLACK 16

/* Eight copies of face 1: eight of face f are f times this. */
#define FACE_BYTES 0x0101010101010101u

/* Append `count` cards of one face to list[n...], given `run`, eight copies of that face (f
 * times FACE_BYTES), returning the new length: sixteen copies are written whatever the count
 * (list has RUN_SLACK bytes of room past the cards it holds), then any more (no face has
 * more than 16 cards) byte by byte. */
static inline int list_run(uint8_t *list, int n, uint64_t run, int count)
{
    memcpy(list + n, &run, 8);
    memcpy(list + n + 8, &run, 8);
    for (int i = RUN_SLACK; i < count; i++)
        list[n + i] = (uint8_t)run;
    return n + count;
}

/* Cards the main deck cannot hold (beyond its own cards and the k Flags still in it) go to a
 * hand with room; the rest but the Flags are listed in free_list (with RUN_SLACK bytes of room
 * past them). Returns their count, or -1. */
static int place_excess(uint8_t *rest, int k, int slots[2], rp_rng *rng, dw_split *out,
                        uint8_t *free_list)
{
    int nfree = 0;
    uint64_t run = 0; /* eight cards of face f */
    for (int f = 0; f < DW_FACES; f++, run += FACE_BYTES) {
        const int cap = f == DW_FLAG ? k : dw_main0[f];
        if (f == DW_FLAG && rest[f] < k)
            return -1;
        for (int excess = rest[f] - cap; excess > 0; excess--) {
            /* a card the main deck cannot hold: to a hand with room, chosen at random when
             * both have room (only the spectator hides two hands) */
            const int q = slots[0] > 0 && slots[1] > 0 ? (int)rp__rng_below(rng, 2)
                          : slots[0] > 0               ? 0
                          : slots[1] > 0               ? 1
                                                       : -1;
            if (q < 0)
                return -1;
            out->hand[q][f]++;
            slots[q]--;
            rest[f]--;
        }
        if (f != DW_FLAG)
            nfree = list_run(free_list, nfree, run, rest[f]);
    }
    return nfree;
}

/* The free cards fill the hands' slots: a partial shuffle of free_list, whose first `taken`
 * are dealt. False when there are too few. */
static bool deal_free(uint8_t *free_list, int nfree, const int slots[2], uint8_t *rest, rp_rng *rng,
                      dw_split *out)
{
    for (int q = 0, taken = 0; q < 2; q++)
        for (int i = 0; i < slots[q]; i++, taken++) {
            if (taken == nfree)
                return false;
            const int j = taken + (int)rp__rng_below(rng, (uint32_t)(nfree - taken));
            const uint8_t f = free_list[j];
            free_list[j] = free_list[taken];
            free_list[taken] = f;
            out->hand[q][f]++;
            rest[f]--;
        }
    return true;
}

/* One try at dealing `pool`, the cards the viewer cannot see, consistently with what is
 * public: a hidden personal deck holds only its own cards, the main deck only main cards with
 * its Flags where DW-1 can put them, and a card gone from a personal deck is in its owner's
 * hand or was played by them. The hands first take what they must (cards gone from their
 * personal decks, then what the main deck cannot hold), then random free cards. */
static bool try_split(const dw_state *s, const bool hidden[2], const uint8_t *pool,
                      uint8_t played[2][DW_FACES], rp_rng *rng, dw_split *out)
{
    memset(out, 0, sizeof *out);
    uint8_t rest[DW_FACES];
    memcpy(rest, pool, DW_FACES);
    sample_flag_depths(rng, out->flag_depth);
    const int drawn = DW_MAIN - s->main_n;
    const int k = (out->flag_depth[0] >= drawn) + (out->flag_depth[1] >= drawn);
    int slots[2] = {0, 0};
    for (int q = 0; q < 2; q++)
        if (hidden[q] && !pick_personal(s, q, rest, rng, out))
            return false;
    for (int q = 0; q < 2; q++)
        if (hidden[q] && (slots[q] = take_personal_origins(s, q, played, rest, out)) < 0)
            return false;
    uint8_t free_list[DW_MAIN + 2 * (DW_HAND + DW_PERSONAL) + RUN_SLACK];
    const int nfree = place_excess(rest, k, slots, rng, out, free_list);
    if (nfree < 0 || !deal_free(free_list, nfree, slots, rest, rng, out))
        return false;
    memcpy(out->main_other, rest, DW_FACES);
    out->main_other[DW_FLAG] = 0;
    return true;
}

/* Counts to a shuffled list (list has RUN_SLACK bytes of room past the cards). */
static int counts_to_list(const uint8_t *counts, uint8_t *list, rp_rng *rng)
{
    int n = 0;
    uint64_t run = 0; /* eight cards of face f */
    for (int f = 0; f < DW_FACES; f++, run += FACE_BYTES)
        n = list_run(list, n, run, counts[f]);
    rp_rng_shuffle_u8(rng, list, n);
    return n;
}

/* Sort list in place: by the set of its faces when no face repeats (a personal deck holds each
 * of its faces once), else by insertion. */
static void sort_faces(uint8_t *list, int n)
{
    uint32_t faces = 0;
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        const uint32_t bit = 1u << list[i];
        distinct += (faces & bit) == 0;
        faces |= bit;
    }
    if (distinct == n) {
        for (int i = 0; faces; faces &= faces - 1)
            list[i++] = (uint8_t)__builtin_ctz(faces);
        return;
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && list[j - 1] > list[j]; j--) {
            const uint8_t t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
}

/* Sort then shuffle: the result depends on the cards and the rng only, never on the hidden
 * order they were in (an AI determinizing two states that look the same must get the same). */
static void canonical_shuffle(uint8_t *list, int n, rp_rng *rng)
{
    sort_faces(list, n);
    rp_rng_shuffle_u8(rng, list, n);
}

/* Shuffle the main deck's cards other than Flags, which keep their places (the fallback). */
static void shuffle_main_keeping_flags(dw_state *s, rp_rng *rng)
{
    uint8_t idx[DW_MAIN], cards[DW_MAIN];
    int n = 0;
    for (int i = 0; i < s->main_n; i++)
        if (s->main[i] != DW_FLAG) {
            idx[n] = (uint8_t)i;
            cards[n++] = s->main[i];
        }
    canonical_shuffle(cards, n, rng);
    for (int i = 0; i < n; i++)
        s->main[idx[i]] = cards[i];
}

/* Put a split found by try_split into the state: hidden hands, shuffled hidden personal
 * decks, and the main deck with its Flags at their depths. */
static void deal_split(dw_state *s, const bool hidden[2], const dw_split *sp, rp_rng *rng)
{
    for (int q = 0; q < 2; q++)
        if (hidden[q]) {
            memcpy(s->hand[q], sp->hand[q], DW_FACES);
            uint8_t *const deck = s->personal[q];
            int n = 0; /* its faces in order, then shuffled, as counts_to_list would list them */
            for (uint32_t set = sp->personal_set[q]; set; set &= set - 1)
                deck[n++] = (uint8_t)__builtin_ctz(set);
            rp_rng_shuffle_u8(rng, deck, n);
        }
    uint8_t other[DW_MAIN + RUN_SLACK];
    int n = counts_to_list(sp->main_other, other, rng);
    /* The deck from its bottom (index 0, depth DW_MAIN - 1) up: the other cards from the end
     * of their list, but at the places of the Flags' depths (two distinct depths). */
    const int place0 = DW_MAIN - 1 - sp->flag_depth[0], place1 = DW_MAIN - 1 - sp->flag_depth[1];
    const int flag_places[2] = {place0 < place1 ? place0 : place1,
                                place0 < place1 ? place1 : place0};
    uint8_t *const deck = s->main;
    const int size = s->main_n;
    int i = 0;
    for (int flag = 0; flag < 2; flag++) {
        for (; i < size && i < flag_places[flag]; i++)
            deck[i] = other[--n];
        if (i < size)
            deck[i++] = DW_FLAG;
    }
    for (; i < size; i++)
        deck[i] = other[--n];
}

/* Resample what a viewer cannot see (DW-13): the hands and personal decks of the `hidden`
 * seats, the main deck's order and contents, the order of the other personal decks, and the
 * rng. A split is almost always found in one or two tries (none missed in 400,000
 * random-game calls with 256 tries); should all tries fail (e.g. a hand-made position whose
 * main-deck Flags sit where DW-1 cannot put them), the hidden contents stay and only orders
 * change. */
static void resample(dw_state *s, const bool hidden[2], rp_rng *rng)
{
    uint8_t pool[DW_FACES] = {0}, played[2][DW_FACES];
    for (int q = 0; q < 2; q++)
        if (hidden[q]) { /* only a hidden seat's played cards are asked (try_split) */
            dw_played_by(s, q, played[q]);
            dw_add_held(s, q, pool);
        }
    for (int i = 0; i < s->main_n; i++)
        pool[s->main[i]]++;
    dw_split sp;
    bool ok = false;
    for (int attempt = 0; attempt < 256 && !ok; attempt++)
        ok = try_split(s, hidden, pool, played, rng, &sp);
    if (ok) {
        deal_split(s, hidden, &sp, rng);
    } else {
        for (int q = 0; q < 2; q++)
            if (hidden[q])
                canonical_shuffle(s->personal[q], s->personal_n[q], rng);
        shuffle_main_keeping_flags(s, rng);
    }
    for (int q = 0; q < 2; q++) /* a seen hand's personal deck: its order is still unknown */
        if (!hidden[q])
            canonical_shuffle(s->personal[q], s->personal_n[q], rng);
    const uint64_t hi = rp_rng_next(rng), lo = rp_rng_next(rng);
    rp_rng_seed(&s->rng, hi << 32 | lo, 0xD4A11u);
}

void dw_determinize(void *st, int viewer, rp_rng *rng)
{
    const int me = dw_viewer_seat(viewer);
    const bool hidden[2] = {me != DW_BLUE, me != DW_RED};
    resample(st, hidden, rng);
}

/* What no player knows: the main deck (its Flags' depths drawn again as DW-1 places them,
 * given what has been drawn) and both personal decks' orders, and the generator. */
void dw_reseed(void *st, rp_rng *rng)
{
    const bool hidden[2] = {false, false};
    resample(st, hidden, rng);
}

/* ------------------------------------------------------------------------------------------ */
/* Evaluation                                                                                 */

/* A cheap estimate from the board only (public): locked walls count fully, open walls by
 * control and the strength margin. */
double dw_evaluate(const void *st, int player)
{
    const dw_state *s = st;
    const int p = player & 1;
    if (s->over) {
        double r[2];
        dw_returns(s, r);
        return r[p];
    }
    double score = 0;
    for (int w = 0; w < DW_WALLS; w++) {
        const double sign = s->control[w] == p ? 1.0 : -1.0;
        if (s->flag[w]) {
            score += 1.5 * sign;
        } else {
            double d = (dw_strength(s, w, p) - dw_strength(s, w, p ^ 1)) / 25.0;
            d = d > 0.5 ? 0.5 : d < -0.5 ? -0.5 : d;
            score += 0.5 * sign + d;
        }
    }
    double v = 0.5 + score / 12.0;
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Flags `player` cannot see (in the other hand, the other personal deck or the main deck),
 * and of those the share expected in the other hand: its size over the cards they may be in. */
static double dw_flags_expected_in_other_hand(const dw_state *s, int player)
{
    const int other = player ^ 1;
    int seen = s->flags_on_board + s->hand[player][DW_FLAG] + s->removed[0][DW_FLAG] +
               s->removed[1][DW_FLAG];
    for (int i = 0; i < s->personal_n[player]; i++)
        seen += s->personal[player][i] == DW_FLAG;
    const int total = dw_main0[DW_FLAG] + dw_personal0[0][DW_FLAG] + dw_personal0[1][DW_FLAG];
    const int places = s->hand_n[other] + s->personal_n[other] + s->main_n;
    return places > 0 ? (double)(total - seen) * s->hand_n[other] / places : 0.0;
}

/* What a fitted evaluation weighs for `player` (internal.h lists them), from what that seat
 * may know (DW-13): the board, the removed piles and the counts are public; of the hands only
 * its own is read, the other's Flags are an expectation over the cards it cannot see. */
void dw_eval_features(const dw_state *s, int player, double x[DW_EVAL_FEATURES])
{
    const int other = player ^ 1;
    double locked = 0, open = 0, margin = 0, safe = 0;
    int mine_open = 0;
    for (int w = 0; w < DW_WALLS; w++) {
        const double sign = s->control[w] == player ? 1.0 : -1.0;
        if (s->flag[w]) {
            locked += sign;
            continue;
        }
        const int d = dw_strength(s, w, player) - dw_strength(s, w, other);
        const double m = d / 25.0;
        open += sign;
        margin += m > 0.5 ? 0.5 : m < -0.5 ? -0.5 : m;
        safe += (d >= 5) - (d <= -5);
        mine_open += s->control[w] == player;
    }
    const int walls = dw_walls_of(s, player);
    const double majority = (walls >= 3) - (walls <= 2);
    const bool plays_next = (s->to_move == player) == (s->phase == DW_PHASE_PLAY);
    const double my_flags = s->hand[player][DW_FLAG];
    const double their_flags = dw_flags_expected_in_other_hand(s, player);
    const double my_lockable = my_flags < mine_open ? my_flags : mine_open;
    const double their_open = DW_WALLS - s->flags_on_board - mine_open;
    const double their_lockable = their_flags < their_open ? their_flags : their_open;
    const double late = s->flags_on_board / 3.0;
    x[0] = locked;
    x[1] = open;
    x[2] = margin;
    x[3] = safe;
    x[4] = majority;
    x[5] = majority * late;
    x[6] = majority * (s->flags_on_board == 2);
    x[7] = plays_next ? 1.0 : -1.0;
    x[8] = my_lockable - their_lockable;
    x[9] = (my_lockable - their_lockable) * late;
    x[10] = (double)s->hand[player][DW_ATTACK];
    x[11] = open * (1.0 - s->main_n / (double)DW_MAIN);
}

/* ------------------------------------------------------------------------------------------ */
/* Observation tensor (for learning agents; layout in docs/python.md). What one seat may see
 * (DW-13, the same things as its view) as floats: "yours" and "the opponent's" by that seat;
 * cards by face, in the order of the face enum (internal.h). */

/* clang-format off */
const rp_obs_field dw_obs_fields[] = {
    {"hand", DW_OBS_HAND, {DW_FACES, 1, 1}, "your hand: cards of each face / 6"},
    {"personal_deck", DW_OBS_PERSONAL, {DW_FACES, 1, 1},
     "your personal deck's cards of each face / 8 (not their order)"},
    {"removed", DW_OBS_REMOVED, {2, DW_FACES, 1},
     "the removed piles, yours then the opponent's: cards of each face / 8"},
    {"walls", DW_OBS_WALLS, {DW_WALLS, DW_OBS_WALL_SIZE, 1},
     "per wall 1..5: one-hot control (you, the opponent); one-hot Flag (none, yours, the "
     "opponent's); then your side and the opponent's, each: Archers of value 1, 2, 3 / 4 (a "
     "spied Archer included), the Cannon stack bottom first as 8 slots one-hot over Cannon "
     "5..9, 1 for each leader face General, Noble, Engineer, Assassin, King, Wizard, Builder, "
     "Spy on it, and its strength (DW-7) / 30"},
    {"spy", DW_OBS_SPY, {6 + DW_FACES + 2, 1, 1},
     "one-hot wall of the Spy (slot 0: not in play, then walls 1..5); one-hot face it covers; "
     "the covered Cannon's place in its stack / 8 (0: the bottom, or no Cannon covered); 1 "
     "when a newer Cannon buries it"},
    {"counts", DW_OBS_COUNTS, {9, 1, 1},
     "hand sizes / 6 and personal deck sizes / 8 (yours then the opponent's), main deck / 21, "
     "Flags on the board / 3, turn / 49, walls you control / 5, the opponent controls / 5"},
    {"turn", DW_OBS_TURN, {12, 1, 1},
     "one-hot to act: you, the opponent, nobody; one-hot phase: play, refill; one-hot last "
     "turn: not yet, the third Flag, an empty hand (DW-12); 1 once over; one-hot winner: you, "
     "the opponent; 1 when you are Red"},
};
/* clang-format on */
_Static_assert(sizeof dw_obs_fields / sizeof dw_obs_fields[0] == DW_OBS_FIELDS,
               "DW_OBS_FIELDS counts the fields");

static void dw_obs_counts(float *out, const uint8_t *counts, float scale)
{
    for (int f = 0; f < DW_FACES; f++)
        out[f] = (float)counts[f] / scale;
}

/* One side of wall w for the tensor: Archers (a spied one included), Cannons, leaders. */
static void dw_obs_side(const dw_state *s, int w, int seat, float *out)
{
    const dw_side side = dw_side_at(s, w, seat), *sd = &side;
    uint8_t archers[DW_FACES];
    dw_side_archers(s, w, seat, archers);
    for (int v = 0; v < 3; v++)
        out[v] = (float)archers[DW_A1 + v] / 4.0f;
    for (int i = 0; i < sd->ncannon; i++)
        out[3 + i * 5 + (sd->cannon[i] - DW_C5)] = 1.0f;
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        out[3 + 40 + (f - DW_GENERAL)] = (sd->leaders & LB(f)) ? 1.0f : 0.0f;
    out[3 + 40 + 8] = (float)dw_strength(s, w, seat) / 30.0f;
}

void dw_observation_tensor(const void *st, int player, float *out)
{
    const dw_state *s = st;
    const int them = player ^ 1;
    memset(out, 0, DW_OBS_SIZE * sizeof *out);
    dw_obs_counts(out + DW_OBS_HAND, s->hand[player], 6.0f);
    uint8_t own[DW_FACES] = {0};
    for (int i = 0; i < s->personal_n[player]; i++)
        own[s->personal[player][i]]++;
    dw_obs_counts(out + DW_OBS_PERSONAL, own, 8.0f);
    dw_obs_counts(out + DW_OBS_REMOVED, s->removed[player], 8.0f);
    dw_obs_counts(out + DW_OBS_REMOVED + DW_FACES, s->removed[them], 8.0f);
    for (int w = 0; w < DW_WALLS; w++) {
        float *wall = out + DW_OBS_WALLS + w * DW_OBS_WALL_SIZE;
        wall[s->control[w] == player ? 0 : 1] = 1.0f;
        wall[2 + (s->flag[w] == 0 ? 0 : s->flag[w] - 1 == player ? 1 : 2)] = 1.0f;
        dw_obs_side(s, w, player, wall + 5);
        dw_obs_side(s, w, them, wall + 5 + DW_OBS_SIDE_SIZE);
    }
    float *spy = out + DW_OBS_SPY;
    spy[s->spy_wall] = 1.0f;
    if (s->spy_wall) {
        spy[6 + dw_spied_face(s)] = 1.0f;
        if (s->spy_on == DW_SPY_ON_CANNON)
            spy[6 + DW_FACES] = (float)s->spy_depth / 8.0f;
        spy[6 + DW_FACES + 1] = dw_spy_visible(s) ? 0.0f : 1.0f;
    }
    float *counts = out + DW_OBS_COUNTS;
    counts[0] = (float)s->hand_n[player] / 6.0f;
    counts[1] = (float)s->hand_n[them] / 6.0f;
    counts[2] = (float)s->personal_n[player] / 8.0f;
    counts[3] = (float)s->personal_n[them] / 8.0f;
    counts[4] = (float)s->main_n / 21.0f;
    counts[5] = (float)s->flags_on_board / 3.0f;
    counts[6] = (float)s->turn / 49.0f;
    counts[7] = (float)dw_walls_of(s, player) / 5.0f;
    counts[8] = (float)dw_walls_of(s, them) / 5.0f;
    float *turn = out + DW_OBS_TURN;
    turn[s->over ? 2 : s->to_move == player ? 0 : 1] = 1.0f;
    turn[3 + s->phase] = 1.0f;
    turn[5 + s->last_turn] = 1.0f;
    turn[8] = s->over ? 1.0f : 0.0f;
    if (s->over)
        turn[9 + (dw_winner(s) == player ? 0 : 1)] = 1.0f;
    turn[11] = (float)player;
}
