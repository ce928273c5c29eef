/* test_walls_and_armies.c — Walls and Armies: one test per rule of the rulebook
 * (shared/seeds/walls-and-armies.txt), per ruling WA-1..WA-15 and per project ruling WA-P*
 * (docs/rules/walls-and-armies.md), on hand-built positions; the exact events of every kind as
 * each seat and the spectator are told them; the other hooks (actions as data, explain_illegal,
 * secret_names, config_of, turn_number, state_ok, the canonical notation); then a property run
 * over random games with the generic checks and the game's own invariants. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/walls-and-armies/internal.h"
#include "support.h"

static const rp_game *const G = &rp_walls_and_armies;

/* The fields every test state ends with: nothing turned up by a last move, a fixed generator. */
#define TAIL " revealed=- rng=00000000000000aa.0000000000000001"
#define BIT(c) (UINT64_C(1) << (c))

/* ---- helpers ---------------------------------------------------------------------------- */

/* The card written `text` ("7H", "10D"), failing the test if it is not one. */
static int C(const char *text)
{
    int card = wa_card_from_text(text, strlen(text));
    if (card < 0)
        fail_msg("not a card: %s", text);
    return card;
}

/* Expand a state text where the word REST stands for every card the text does not name (in
 * card order), so tests only write the cards that matter. */
static void expand(const char *spec, char text[RP_STATE_TEXT])
{
    char copy[RP_STATE_TEXT], rest[RP_STATE_TEXT] = "";
    snprintf(copy, sizeof copy, "%s", spec);
    uint64_t named = 0;
    for (char *t = strtok(copy, " ,=:+*/~"); t; t = strtok(NULL, " ,=:+*/~")) {
        int card = wa_card_from_text(t, strlen(t));
        if (card >= 0)
            named |= BIT(card);
    }
    for (int c = 0; c < WA_CARDS; c++) {
        if (named & BIT(c))
            continue;
        char name[4];
        wa_card_to_text(c, name);
        if (*rest)
            strcat(rest, ",");
        strcat(rest, name);
    }
    const char *at = strstr(spec, "REST");
    int len = at ? snprintf(text, RP_STATE_TEXT, "%.*s%s%s", (int)(at - spec), spec, rest, at + 4)
                 : snprintf(text, RP_STATE_TEXT, "%s", spec);
    if (len < 0 || len >= RP_STATE_TEXT)
        fail_msg("state text too long: %s", spec);
}

/* Load a state written in full notation with REST (see expand); fails the test if refused. */
static void load(wa_state *s, const char *spec)
{
    char text[RP_STATE_TEXT];
    expand(spec, text);
    rp_test_load(G, s, text);
}

/* A main deck, top first: the cards named in `top_first`, then the rest in card order. */
static void order_from(uint8_t order[WA_CARDS], const char *top_first)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", top_first);
    uint64_t used = 0;
    int n = 0;
    for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
        order[n++] = (uint8_t)C(t);
        used |= BIT(C(t));
    }
    for (int c = 0; c < WA_CARDS; c++)
        if (!(used & BIT(c)))
            order[n++] = (uint8_t)c;
    assert_int_equal(n, WA_CARDS);
}

/* The cards of a pile as a set. */
static uint64_t set_of(const uint8_t *list, int n)
{
    uint64_t m = 0;
    for (int i = 0; i < n; i++)
        m |= BIT(list[i]);
    return m;
}

static int cards_in_stacks(const wa_state *s)
{
    int n = 0;
    for (int k = 0; k < s->nstacks; k++)
        n += __builtin_popcountll(s->stack_cards[k]);
    return n;
}

/* The top of a player's army deck: the card the next attack of theirs will flip. */
static int top_army(const wa_state *s, int pl)
{
    assert_true(s->p[pl].narmy > 0);
    return s->p[pl].army[s->p[pl].narmy - 1];
}

static char *view(const wa_state *s, int player)
{
    char *v = rp_view_text(G, s, player, false);
    assert_non_null(v);
    return v;
}

/* A state where P0 chooses an attack against P1; P0's army deck is written top first. */
#define BASE_HEAD "wa1 turn=1 cap=200 attacker=0 phase=attack"

/* ---- WA-1, WA-2: setup and the first player ------------------------------------------- */

/* WA-1: "flip the top card of the main deck; a face card becomes a shield of that player (face
 * up) and the flip is repeated for the same type; a number card is discarded and that many
 * cards are dealt face down as walls ... or as the army deck". Player 0 then 1, walls then army. */
static void test_WA1_setup_flips_shields_walls_and_armies(void **unused)
{
    (void)unused;
    uint8_t order[WA_CARDS];
    order_from(order, "KH,3C,2D,4D,6D,4C,7D,8D,9D,10D,AS,QS,2S,3S,4S,5S,6S,7S,8S,9S,10S");
    rp_rng rng;
    rp_rng_seed(&rng, 1, 1);
    wa_state s;
    wa_deal(&s, order, 200, &rng);
    assert_int_equal(s.p[0].nshields, 1);
    assert_int_equal(s.p[0].shields[0], C("KH"));
    assert_int_equal(s.p[0].nwalls, 3);
    assert_int_equal(set_of(s.p[0].walls, 3), BIT(C("2D")) | BIT(C("4D")) | BIT(C("6D")));
    assert_int_equal(s.p[1].nshields, 2);
    assert_int_equal(s.p[1].shields[0], C("AS"));
    assert_int_equal(s.p[1].shields[1], C("QS"));
    assert_int_equal(s.p[1].nwalls, 2);
    assert_int_equal(set_of(s.p[1].walls, 2), BIT(C("3S")) | BIT(C("4S")));
    /* The number cards that said how many to deal are discarded. */
    assert_int_equal(s.discard, BIT(C("3C")) | BIT(C("4C")) | BIT(C("2S")) | BIT(C("5S")));
    /* Armies: 4 for P0; 5 for P1, who goes first (WA-2: fewer walls) and has flipped
     * nothing yet (WA-P1: the first attack is chosen before any flip). */
    assert_int_equal(s.p[0].narmy, 4);
    assert_int_equal(set_of(s.p[0].army, 4),
                     BIT(C("7D")) | BIT(C("8D")) | BIT(C("9D")) | BIT(C("10D")));
    assert_int_equal(s.attacker, 1);
    assert_int_equal(s.phase, WA_ATTACK);
    assert_int_equal(s.p[1].narmy, 5);
    assert_int_equal(top_army(&s, 1), C("10S")); /* WA-P5: the last card dealt is the top */
    assert_int_equal(set_of(s.p[1].army, 5),
                     BIT(C("6S")) | BIT(C("7S")) | BIT(C("8S")) | BIT(C("9S")) | BIT(C("10S")));
    assert_int_equal(s.ndeck, 52 - 21);
    assert_int_equal(s.faceup, 0); /* walls are dealt face down */
}

/* WA-2: "First player: fewer walls, then fewer shields, then fewer army cards". */
/* wa_init shuffles the full deck with rp_rng_shuffle_u8 inline, unrolled for its size
 * (rp__rng_shuffle_u8, rng_internal.h), and with rp_rng_shuffle_u8 itself while a draw list is
 * in use: recording the draws (the generator's values, drawn one rp_rng_below at a time), the
 * deals of many seeds are byte for byte those made without a list, and every draw was
 * recorded: the shuffle's 51, and WA-2's coin when the counts tie. */
static void test_WA1_full_deck_shuffles_as_rp_rng_shuffle(void **unused)
{
    (void)unused;
    int coins = 0;
    for (int seed = 0; seed < 1000; seed++) {
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d", seed);
        const int used = rp_test_init_draws_agree(G, opts);
        assert_in_range(used, WA_CARDS - 1, WA_CARDS);
        coins += used == WA_CARDS;
    }
    assert_true(coins > 0); /* both ways were seen */
    assert_true(coins < 1000);
}

static void test_WA2_first_player_fewer_shields_then_fewer_army(void **unused)
{
    (void)unused;
    uint8_t order[WA_CARDS];
    rp_rng rng;
    rp_rng_seed(&rng, 1, 1);
    wa_state s;
    /* Walls 2 v 2; P1 has a shield (JC), P0 none: P0 starts. */
    order_from(order, "2C,3C,4C,2D,5C,6C,JC,2H,7C,8C,2S,9C,10C");
    wa_deal(&s, order, 200, &rng);
    assert_int_equal(s.p[0].nwalls, s.p[1].nwalls);
    assert_int_equal(s.attacker, 0);
    /* Walls 2 v 2, no shields, army 3 v 2: P1 starts. */
    order_from(order, "2C,3C,4C,3D,5C,6C,7C,2H,8C,9C,2S,10C,3H");
    wa_deal(&s, order, 200, &rng);
    assert_int_equal(s.p[0].nshields + s.p[1].nshields, 0);
    assert_int_equal(s.attacker, 1);
}

/* WA-2: "... then a fair coin": a full tie goes either way depending on the seed. */
static void test_WA2_full_tie_is_a_coin(void **unused)
{
    (void)unused;
    uint8_t order[WA_CARDS];
    order_from(order, "2C,3C,4C,2D,5C,6C,2H,7C,8C,2S,9C,10C");
    int first[2] = {0, 0};
    for (uint64_t seed = 0; seed < 64; seed++) {
        rp_rng rng;
        rp_rng_seed(&rng, seed, 1);
        wa_state s;
        wa_deal(&s, order, 200, &rng);
        assert_int_equal(s.p[0].nwalls, 2);
        assert_int_equal(s.p[1].nwalls, 2);
        assert_int_equal(s.p[0].narmy, 2);
        assert_int_equal(s.p[1].narmy, 2);
        first[s.attacker]++;
    }
    assert_true(first[0] > 8 && first[1] > 8);
}

/* Sorted legal actions of s into out; returns the count. */
static int sorted_legal(const wa_state *s, rp_action out[RP_MAX_LEGAL])
{
    int n = G->legal_actions(s, out);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            rp_action t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* WA-P1, the rulebook's order: "Pick one of the opponent's wall or shield cards to attack,
 * then flip the top card from your army deck", and "stack your next army card on top of any
 * of your in-play army cards". Two tables that differ only in P0's hidden top army card (KH or
 * 2H) look the same to both players and give P0 the same choices; only after P0 picks a target
 * is the card flipped, and then the outcome differs: KH (13) beats JD (11), 2H does not. */
static void test_WAP1_attacker_chooses_before_the_flip(void **unused)
{
    (void)unused;
    wa_state a, b;
    load(&a, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C shields0=- "
                       "army0=KH,2H walls1=4D,9S shields1=QS,JD army1=7D stacks=QS:5H" TAIL);
    load(&b, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C shields0=- "
                       "army0=2H,KH walls1=4D,9S shields1=QS,JD army1=7D stacks=QS:5H" TAIL);
    assert_int_equal(G->current_player(&a), 0);
    assert_int_equal(a.p[0].narmy, 2); /* nothing is flipped before the choice */
    rp_action la[RP_MAX_LEGAL], lb[RP_MAX_LEGAL];
    int na = sorted_legal(&a, la), nb = sorted_legal(&b, lb);
    assert_int_equal(na, 2); /* attack shield 2 (JD), stack 1 (on 5H against QS) */
    assert_int_equal(na, nb);
    assert_memory_equal(la, lb, (size_t)na * sizeof *la);
    for (int p = 0; p < 2; p++) {
        char *va = view(&a, p), *vb = view(&b, p);
        assert_string_equal(va, vb);
        assert_null(strstr(va, "\"KH\""));
        assert_null(strstr(va, "\"2H\""));
        free(va);
        free(vb);
    }
    rp_test_play(G, &a, "attack shield 2");
    rp_test_play(G, &b, "attack shield 2");
    /* a: KH flipped, 13 > 11, JD and KH discarded; P0 chooses again. */
    assert_int_equal(a.discard, BIT(C("KH")) | BIT(C("JD")));
    assert_int_equal(a.p[1].nshields, 1);
    assert_int_equal(a.phase, WA_ATTACK);
    assert_int_equal(a.p[0].narmy, 1);
    /* b: 2H flipped onto a new stack against JD; P1 now leaves or counters. */
    assert_int_equal(b.nstacks, 2);
    assert_int_equal(b.stack_target[1], C("JD"));
    assert_int_equal(b.stack_cards[1], BIT(C("2H")));
    assert_int_equal(b.phase, WA_DEFEND);
    assert_int_equal(G->current_player(&b), 1);
    /* Now the flipped card is public. */
    char *va = view(&a, 1), *vb = view(&b, 1);
    assert_non_null(strstr(va, "\"KH\""));
    assert_non_null(strstr(vb, "\"2H\""));
    assert_null(strstr(va, "\"2H\""));
    assert_null(strstr(vb, "\"KH\""));
    free(va);
    free(vb);
}

/* WA-P1 from a real deal: whatever hidden cards a determinization puts on top of the
 * attacker's army deck, the attacker's legal moves are the same. */
static void test_WAP1_attacker_choices_ignore_the_hidden_deck(void **unused)
{
    (void)unused;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        wa_state s;
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%llu", (unsigned long long)seed);
        rp_test_init(G, &s, opts);
        assert_int_equal(s.phase, WA_ATTACK);
        rp_action base[RP_MAX_LEGAL];
        int n = sorted_legal(&s, base);
        rp_rng rng;
        rp_rng_seed(&rng, seed, 3);
        int top_differs = 0;
        for (int t = 0; t < 20; t++) {
            wa_state d = s;
            G->determinize(&d, s.attacker, &rng);
            top_differs |= top_army(&d, s.attacker) != top_army(&s, s.attacker);
            rp_action other[RP_MAX_LEGAL];
            assert_int_equal(sorted_legal(&d, other), n);
            assert_memory_equal(other, base, (size_t)n * sizeof *base);
        }
        assert_true(top_differs);
    }
}

/* ---- WA-3: attacks and stacks ----------------------------------------------------------- */

/* Rulebook: "You cannot attack wall cards until your opponent's shield cards are eliminated." */
static void test_WA3_shields_before_walls(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                       "shields0=- army0=5H,6H walls1=4D,9S shields1=QS army1=7D stacks=-" TAIL);
    assert_true(rp_test_is_legal(G, &s, "attack shield 1"));
    assert_false(rp_test_is_legal(G, &s, "attack wall 1"));
    assert_false(rp_test_is_legal(G, &s, "attack wall 2"));
    assert_false(rp_test_is_legal(G, &s, "stack 1"));
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                       "shields0=- army0=5H,6H walls1=4D,9S shields1=- army1=7D stacks=-" TAIL);
    assert_true(rp_test_is_legal(G, &s, "attack wall 1"));
    assert_true(rp_test_is_legal(G, &s, "attack wall 2"));
    assert_false(rp_test_is_legal(G, &s, "attack shield 1"));
}

/* Rulebook: "If your card is higher, then discard both the target card and the army card."
 * WA-3: "wins at once". K (13) beats Q (12): both go, and the attacker chooses the next attack. */
static void test_WA3_higher_card_discards_target_and_card(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                       "shields0=- army0=KH,6H walls1=4D,9S shields1=QS army1=7D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    assert_int_equal(s.p[1].nshields, 0);
    assert_int_equal(s.discard, BIT(C("KH")) | BIT(C("QS")));
    assert_int_equal(s.nstacks, 0);
    assert_int_equal(s.phase, WA_ATTACK);
    assert_int_equal(s.p[0].narmy, 1);
    assert_int_equal(top_army(&s, 0), C("6H"));
    assert_int_equal(G->current_player(&s), 0);
}

/* Rulebook: "If your card is higher ... Otherwise, your opponent can choose": an equal card
 * (Q against Q) does not win; the defender is asked (WA-4). */
static void test_WA3_equal_card_does_not_win(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                       "shields0=- army0=QH,6H walls1=4D,9S shields1=QS army1=7D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    assert_int_equal(s.p[1].nshields, 1);
    assert_int_equal(s.nstacks, 1);
    assert_int_equal(s.stack_total[0], 12);
    assert_int_equal(s.phase, WA_DEFEND);
    assert_int_equal(G->current_player(&s), 1);
}

/* Rulebook: "stack your next army card on top of any of your in-play army cards, adding the
 * number of the armies together". 5 + 8 = 13 > Q: the stack wins; 5 + 4 = 9 does not. */
static void test_WA3_stacked_cards_add_up(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s,
         BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=8C,6H walls1=4D,9S shields1=QS,JD army1=7D stacks=QS:5H" TAIL);
    rp_test_play(G, &s, "stack 1");
    assert_int_equal(s.p[1].nshields, 1);
    assert_int_equal(s.p[1].shields[0], C("JD"));
    assert_int_equal(s.discard, BIT(C("5H")) | BIT(C("8C")) | BIT(C("QS")));
    assert_int_equal(s.nstacks, 0);
    load(&s,
         BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=4C,6H walls1=4D,9S shields1=QS,JD army1=7D stacks=QS:5H" TAIL);
    rp_test_play(G, &s, "stack 1");
    assert_int_equal(s.nstacks, 1);
    assert_int_equal(s.stack_total[0], 9);
    assert_int_equal(s.stack_cards[0], BIT(C("5H")) | BIT(C("4C")));
    assert_int_equal(s.phase, WA_DEFEND);
}

/* Rulebook: "If the target card is face-down, flip it over to reveal it." */
static void test_WA3_attacked_wall_is_revealed(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                       "shields0=- army0=5H,6H walls1=4D,9S shields1=- army1=7D stacks=-" TAIL);
    char *before = view(&s, 0);
    assert_null(strstr(before, "\"9S\""));
    free(before);
    rp_test_play(G, &s, "attack wall 2");
    assert_true(s.faceup & BIT(C("9S")));
    assert_false(s.faceup & BIT(C("4D")));
    for (int p = 0; p < 2; p++) {
        char *v = view(&s, p);
        assert_non_null(strstr(v, "\"walls\":[null,\"9S\"]"));
        free(v);
    }
}

/* ---- WA-4: the defender's choice ------------------------------------------------------- */

#define DEFEND_HEAD "wa1 turn=1 cap=200 attacker=0 phase=defend pending=1 winner=- "

/* WA-4 / task brief: the defender decides; "leave" keeps the stack in play and the attacker
 * flips the next army card. */
static void test_WA4_leave_keeps_the_stack(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, DEFEND_HEAD "deck=REST discard=- walls0=2S,3S shields0=- army0=6H,7H "
                         "walls1=4D,9S* shields1=- army1=10D stacks=9S:2C+5H" TAIL);
    assert_int_equal(G->current_player(&s), 1);
    rp_test_play(G, &s, "leave");
    assert_int_equal(s.nstacks, 1);
    assert_int_equal(s.stack_total[0], 7);
    assert_int_equal(s.phase, WA_ATTACK);
    assert_int_equal(s.p[0].narmy, 2); /* nothing flipped until the attacker chooses */
    assert_int_equal(top_army(&s, 0), C("6H"));
    assert_int_equal(G->current_player(&s), 0);
    assert_int_equal(s.p[1].narmy, 1);
}

/* WA-4: "A counter greater than the stack total: the counter is discarded and the stack's
 * cards join the defender's walls face down." 10 > 5 + 2. */
static void test_WA4_higher_counter_captures_the_stack_as_walls(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, DEFEND_HEAD "deck=REST discard=- walls0=2S,3S shields0=- army0=6H,7H "
                         "walls1=4D,9S* shields1=- army1=10D,8D stacks=9S:2C+5H" TAIL);
    rp_test_play(G, &s, "counter");
    assert_int_equal(s.discard, BIT(C("10D")));
    assert_int_equal(s.nstacks, 0);
    assert_int_equal(s.p[1].nwalls, 4);
    assert_int_equal(s.p[1].walls[2], C("2C"));
    assert_int_equal(s.p[1].walls[3], C("5H"));
    /* Captured cards are face down; the target stays, face up. */
    assert_int_equal(s.faceup, BIT(C("9S")));
    assert_int_equal(s.p[1].narmy, 1);
    assert_int_equal(s.phase, WA_ATTACK);
    assert_int_equal(top_army(&s, 0), C("6H"));
}

/* WA-4: "Otherwise the counter and the stack are discarded and the target stays (face up)":
 * a counter equal to the stack (7 against 5 + 2) does not capture. */
static void test_WA4_counter_not_higher_discards_both(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, DEFEND_HEAD "deck=REST discard=- walls0=2S,3S shields0=- army0=6H,7H "
                         "walls1=4D,9S* shields1=- army1=7D stacks=9S:2C+5H" TAIL);
    rp_test_play(G, &s, "counter");
    assert_int_equal(s.discard, BIT(C("7D")) | BIT(C("5H")) | BIT(C("2C")));
    assert_int_equal(s.nstacks, 0);
    assert_int_equal(s.p[1].nwalls, 2);
    assert_int_equal(s.p[1].walls[1], C("9S"));
    assert_int_equal(s.faceup, BIT(C("9S")));
    assert_int_equal(s.p[1].narmy, 0);
}

/* WA-14: "A captured army card becomes its own face-down wall at once and may be attacked
 * later in the same turn." */
static void test_WA14_captured_card_can_be_attacked_this_turn(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, DEFEND_HEAD "deck=REST discard=- walls0=2S,3S shields0=- army0=8H "
                         "walls1=4D,9S* shields1=- army1=10D stacks=9S:2C+5H" TAIL);
    rp_test_play(G, &s, "counter");
    assert_int_equal(s.phase, WA_ATTACK);
    assert_int_equal(top_army(&s, 0), C("8H"));
    assert_true(rp_test_is_legal(G, &s, "attack wall 3")); /* 2C, captured just now */
    assert_true(rp_test_is_legal(G, &s, "attack wall 4")); /* 5H */
    rp_test_play(G, &s, "attack wall 3");
    assert_int_equal(s.p[1].nwalls, 3);
    assert_int_equal(s.p[1].walls[2], C("5H"));
    assert_true(s.discard & BIT(C("2C")));
    assert_true(s.discard & BIT(C("8H")));
}

/* WA-9: "A new attack may not open on an opponent card that already has one of the attacker's
 * stacks against it ...; once that stack is gone, the card may be attacked again." */
static void test_WA9_no_second_stack_on_one_target(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,4C "
                       "shields0=- army0=3C,2D walls1=4D,9S shields1=QS,JD army1=10D "
                       "stacks=QS:5H" TAIL);
    assert_false(rp_test_is_legal(G, &s, "attack shield 1"));
    assert_true(rp_test_is_legal(G, &s, "attack shield 2"));
    assert_true(rp_test_is_legal(G, &s, "stack 1"));
    rp_test_play(G, &s, "stack 1"); /* 5 + 3 = 8, not above Q */
    rp_test_play(G, &s, "counter"); /* 10 > 8: stack captured, QS free again */
    assert_int_equal(top_army(&s, 0), C("2D"));
    assert_true(rp_test_is_legal(G, &s, "attack shield 1"));
}

/* WA-13: "The defender is asked after every flip that does not beat its target, the
 * attacker's last card included; with an empty army deck leave is the only choice". */
static void test_WA13_defender_asked_after_last_card_with_leave_only(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,4C "
                       "shields0=- army0=2H walls1=4D,9S shields1=QS army1=- stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    assert_int_equal(s.phase, WA_DEFEND);
    assert_int_equal(G->current_player(&s), 1);
    rp_action legal[RP_MAX_LEGAL];
    assert_int_equal(G->legal_actions(&s, legal), 1);
    assert_int_equal(legal[0], WA_ACT_LEAVE);
    assert_false(rp_test_is_legal(G, &s, "counter"));
}

/* ---- WA-5, WA-6, WA-10, WA-11, WA-12: end of turn and replenishing --------------------- */

/* WA-5: "Unresolved stacks are then discarded, and face-up walls are turned face down. The
 * attacker then replenishes: ... a number card is discarded and that many cards are dealt
 * into the army deck." Shields stay face up (WA-P4). */
static void test_WA5_end_of_turn_discards_stacks_and_replenishes(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, "wa1 turn=1 cap=200 attacker=0 phase=defend pending=2 winner=- "
             "deck=4C,2D,3D,5D,6D,REST discard=- walls0=2S,3S shields0=KS army0=- "
             "walls1=4D*,9S*,JD shields1=- army1=8D stacks=4D:3C,9S:5H" TAIL);
    rp_test_play(G, &s, "leave");
    assert_int_equal(s.nstacks, 0);
    assert_int_equal(s.discard, BIT(C("3C")) | BIT(C("5H")) | BIT(C("4C")));
    assert_int_equal(s.faceup, 0);
    assert_int_equal(s.p[1].nwalls, 3);
    assert_int_equal(s.p[0].narmy, 4);
    assert_int_equal(set_of(s.p[0].army, 4),
                     BIT(C("2D")) | BIT(C("3D")) | BIT(C("5D")) | BIT(C("6D")));
    assert_int_equal(s.turn, 2);
    assert_int_equal(s.attacker, 1);
    assert_int_equal(s.phase, WA_ATTACK);
    assert_int_equal(s.p[1].narmy, 1);
    assert_int_equal(top_army(&s, 1), C("8D"));
    char *v = view(&s, 1);
    assert_non_null(strstr(v, "\"walls\":[null,null,null]"));
    assert_non_null(strstr(v, "\"shields\":[\"KS\"]"));
    free(v);
}

/* WA-5 "face-up walls are turned face down", WA-8 "face-up cards ... are public", issue 26:
 * a wall turned down again, and a captured army card (WA-4, flipped face up before it joined
 * the walls face down), are face down but both players have seen them: the view, the screen
 * and the notation say which card lies there, determinize leaves them in place, and they are
 * no secret; turned up again they are plain face-up walls, and gone they are forgotten. */
static void test_WA5_walls_turned_down_stay_seen(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, "wa1 turn=1 cap=200 attacker=0 phase=defend pending=2 winner=- "
             "deck=4C,2D,3D,5D,6D,REST discard=- walls0=2S,3S shields0=KS army0=- "
             "walls1=4D*,9S*,JD shields1=- army1=8D stacks=4D:3C,9S:5H" TAIL);
    rp_test_play(G, &s, "leave");
    assert_int_equal(s.faceup, 0);
    assert_int_equal(s.seen, BIT(C("4D")) | BIT(C("9S")));
    char *v = view(&s, 0);
    assert_non_null(strstr(v, "\"walls\":[null,null,null]"));
    assert_non_null(strstr(v, "\"walls_seen\":[\"4D\",\"9S\",null]"));
    free(v);
    char *screen = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&screen, &len);
    G->render(&s, RP_SPECTATOR, out, false);
    fclose(out);
    assert_non_null(strstr(screen, "walls:   1:(4D) 2:(9S) 3:[##]"));
    free(screen);
    char secrets[RP_STATE_TEXT], text[RP_STATE_TEXT];
    assert_true(G->secret_names(&s, 0, secrets, sizeof secrets) >= 0);
    assert_null(strstr(secrets, "4D"));
    assert_null(strstr(secrets, "9S"));
    assert_true(G->state_to_text(&s, text, sizeof text) > 0);
    assert_non_null(strstr(text, "walls1=4D~,9S~,"));
    for (uint64_t seed = 1; seed <= 20; seed++) {
        wa_state d = s;
        rp_rng rng;
        rp_rng_seed(&rng, seed, 3);
        G->determinize(&d, 0, &rng);
        assert_int_equal(d.p[1].walls[0], C("4D"));
        assert_int_equal(d.p[1].walls[1], C("9S"));
    }
    /* Red attacks; Blue's turn: Blue attacks the seen 9S (wall 2) and it is face up again. */
    load(&s, "wa1 turn=2 cap=200 attacker=0 phase=attack pending=- winner=- deck=REST discard=- "
             "walls0=2S,3S shields0=- army0=10H walls1=4D~,9S~,JD shields1=- army1=8D "
             "stacks=-" TAIL);
    rp_test_play(G, &s, "attack wall 2");
    assert_int_equal(s.seen, BIT(C("4D"))); /* 10 beats 9S: gone, and forgotten */
    assert_int_equal(s.faceup, 0);
    assert_int_equal(s.p[1].nwalls, 2);
}

/* WA-4 then WA-5: captured army cards were seen face up; as walls they stay seen. */
static void test_WA4_captured_cards_stay_seen(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, DEFEND_HEAD "deck=REST discard=- walls0=2S,3S shields0=- army0=6H,7H "
                         "walls1=4D,9S* shields1=- army1=10D,8D stacks=9S:2C+5H" TAIL);
    rp_test_play(G, &s, "counter");
    assert_int_equal(s.seen, BIT(C("2C")) | BIT(C("5H")));
    assert_int_equal(s.faceup, BIT(C("9S")));
    char *v = view(&s, 1);
    assert_non_null(strstr(v, "\"walls_seen\":[null,null,\"2C\",\"5H\"]"));
    free(v);
}

/* WA-11: "Replenishing is a single flip: a face card gives a shield and no army cards". */
static void test_WA11_replenish_face_card_is_a_shield_only(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=KC,5C,REST discard=- walls0=2C,4C "
                       "shields0=- army0=2H walls1=4D,9S shields1=QS army1=9D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    rp_test_play(G, &s, "leave");
    assert_int_equal(s.p[0].nshields, 1);
    assert_int_equal(s.p[0].shields[0], C("KC"));
    assert_int_equal(s.p[0].narmy, 0);
    assert_int_equal(s.deck[s.ndeck - 1], C("5C")); /* no second flip */
    assert_int_equal(s.attacker, 1);
}

/* WA-6 + WA-10: "the discard pile is shuffled to form a new one", "when a card is needed from
 * an empty main deck ...; a flipped number card is discarded first, so it can come back in
 * that deal." The deck holds only 3C: it is flipped, discarded, and the 3 cards dealt come
 * from the reshuffled pile {AH, QS, 3C}. */
static void test_WA10_reshuffle_when_needed_includes_the_flipped_card(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=3C discard=- walls0=2C,4C "
                       "shields0=- army0=AH walls1=4D shields1=QS army1=REST stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    assert_int_equal(s.p[0].narmy, 3);
    assert_int_equal(set_of(s.p[0].army, 3), BIT(C("AH")) | BIT(C("QS")) | BIT(C("3C")));
    assert_int_equal(s.ndeck, 0);
    assert_int_equal(s.discard, 0);
    assert_int_equal(s.attacker, 1);
}

/* WA-6: "If both are empty a draw or deal simply gives fewer cards": a 4 deals only the 3 cards
 * that exist. */
static void test_WA6_both_piles_empty_deal_fewer_cards(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=4C discard=- walls0=2C,3C "
                       "shields0=- army0=AH walls1=4D shields1=QS army1=REST stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    assert_int_equal(s.p[0].narmy, 3);
    assert_int_equal(set_of(s.p[0].army, 3), BIT(C("AH")) | BIT(C("QS")) | BIT(C("4C")));
    assert_int_equal(s.ndeck + __builtin_popcountll(s.discard), 0);
}

/* WA-12: "A turn that starts with an empty army deck has no attacks, only the replenish, and it
 * counts toward the turn cap." P1's turn 2 is only a replenish; P0 attacks in turn 3. */
static void test_WA12_empty_army_turn_is_only_a_replenish(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=2C,5C,6C,3C,7C,8C,9C,REST "
                       "discard=- walls0=2D,3D shields0=- army0=AH walls1=4D shields1=QS "
                       "army1=- stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    assert_int_equal(s.turn, 3);
    assert_int_equal(s.attacker, 0);
    assert_int_equal(s.p[1].narmy, 3);
    assert_int_equal(set_of(s.p[1].army, 3), BIT(C("7C")) | BIT(C("8C")) | BIT(C("9C")));
    assert_int_equal(s.p[0].narmy, 2);
    /* WA-P5: 5C then 6C were dealt, so 6C is on top and flipped first. */
    assert_int_equal(top_army(&s, 0), C("6C"));
    assert_int_equal(s.p[0].army[0], C("5C"));
}

/* ---- WA-7, WA-15: the end -------------------------------------------------------------- */

/* WA-7 + WA-15: "A player with no walls loses at once", "mid-turn": the attacker still holds
 * army cards when the last wall falls. */
static void test_WA7_no_walls_loses_at_once_mid_turn(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                       "shields0=- army0=9C,6H,7H walls1=5D shields1=- army1=8D stacks=-" TAIL);
    rp_test_play(G, &s, "attack wall 1");
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
    assert_int_equal(s.winner, 0);
    assert_int_equal(s.p[0].narmy, 2);
    rp_action legal[RP_MAX_LEGAL];
    assert_int_equal(G->legal_actions(&s, legal), 0);
    double r[2];
    G->returns(&s, r);
    assert_true(r[0] == 1.0 && r[1] == 0.0);
}

/* WA-7 + WA-15: "the player with more walls wins", "checked after the replenish of turn 200;
 * shields do not count as walls". P0 has 2 walls and 4 shields, P1 3 walls: P1 wins. */
static void test_WA15_turn_cap_more_walls_win_shields_do_not_count(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, "wa1 turn=200 cap=200 attacker=0 phase=attack pending=- winner=- deck=KC,REST "
             "discard=- walls0=2C,3C shields0=KS,AS,KD army0=2H walls1=4D,5D,6D shields1=QS "
             "army1=9D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    rp_test_play(G, &s, "leave");
    assert_int_equal(s.p[0].nshields, 4); /* the replenish happened first */
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
    assert_int_equal(s.winner, 1);
    double r[2];
    G->returns(&s, r);
    assert_true(r[0] == 0.0 && r[1] == 1.0);
}

/* WA-7, "A player with no walls loses at once", also at the deal: three cards (2C, 2D, 2H) give
 * Blue two walls and an army of the reshuffled 2C (WA-6), then nothing is left to deal Red. */
static void test_WA7_a_deal_that_leaves_red_no_walls_is_blues(void **unused)
{
    (void)unused;
    const uint8_t order[3] = {0, 1, 2}; /* 2C on top */
    rp_rng rng;
    rp_rng_seed(&rng, 1, 1);
    wa_state s;
    wa_deal_cards(&s, order, 3, 10, &rng);
    assert_true(s.p[0].nwalls > 0);
    assert_int_equal(s.p[1].nwalls, 0);
    assert_int_equal(s.phase, WA_OVER);
    assert_int_equal(s.winner, 0);
}

/* WA-7: "equal walls a draw"; and before the cap the game goes on (turn 199 of 200). */
static void test_WA7_turn_cap_equal_walls_draw(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, "wa1 turn=200 cap=200 attacker=0 phase=attack pending=- winner=- deck=KC,REST "
             "discard=- walls0=2C,3C,7C shields0=- army0=2H walls1=4D,5D,6D shields1=QS "
             "army1=9D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    rp_test_play(G, &s, "leave");
    assert_int_equal(s.winner, WA_DRAW);
    double r[2];
    G->returns(&s, r);
    assert_true(r[0] == 0.5 && r[1] == 0.5);
    load(&s, "wa1 turn=199 cap=200 attacker=0 phase=attack pending=- winner=- deck=KC,REST "
             "discard=- walls0=2C,3C,7C shields0=- army0=2H walls1=4D,5D,6D shields1=QS "
             "army1=9D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    rp_test_play(G, &s, "leave");
    assert_int_equal(G->current_player(&s), 1);
    assert_int_equal(s.turn, 200);
}

/* WA-P3: the turn cap is the option turn-cap, 1..10000, default 200; a cap of 1 ends the game
 * after the first turn's replenish. */
static void test_WAP3_turn_cap_option(void **unused)
{
    (void)unused;
    rp_config cfg;
    rp_error err = {{0}};
    rp_config_default(G, &cfg);
    assert_int_equal(rp_config_int(G, &cfg, "turn-cap"), 200);
    assert_true(rp_config_set(G, &cfg, "turn-cap=0", &err) < 0);
    assert_true(rp_config_set(G, &cfg, "turn-cap=10001", &err) < 0);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        wa_state s;
        char opts[64];
        snprintf(opts, sizeof opts, "turn-cap=1 seed=%llu", (unsigned long long)seed);
        rp_test_init(G, &s, opts);
        rp_rng rng;
        rp_rng_seed(&rng, seed, 5);
        while (G->current_player(&s) != RP_TERMINAL) {
            rp_test_random_step(G, &s, &rng);
        }
        assert_int_equal(s.turn, 1);
    }
}

/* ---- WA-8: information ----------------------------------------------------------------- */

/* WA-8: "Face-down cards are hidden from both players (the army decks from their owners too);
 * face-up cards, shields, counts and the discard pile are public." */
static void test_WA8_views_hide_face_down_cards_from_everyone(void **unused)
{
    (void)unused;
    wa_state s, swapped;
    const char *a = BASE_HEAD " pending=- winner=- deck=REST discard=7S,8S "
                              "walls0=2C,3C shields0=KS army0=6C,9D,10D walls1=4D*,5D "
                              "shields1=- army1=JD,QH stacks=4D:3S" TAIL;
    const char *b = BASE_HEAD " pending=- winner=- deck=REST discard=7S,8S "
                              "walls0=10D,QH shields0=KS army0=3C,9D,6C walls1=4D*,JD "
                              "shields1=- army1=5D,2C stacks=4D:3S" TAIL;
    load(&s, a);
    load(&swapped, b);
    /* 6C, the top of the attacker's army, is hidden too: it is flipped only after the
     * attacker's choice (WA-P1). */
    static const char *const hidden[] = {"\"2C\"", "\"3C\"", "\"9D\"", "\"10D\"",
                                         "\"5D\"", "\"JD\"", "\"QH\"", "\"6C\""};
    static const char *const shown[] = {"\"KS\"", "\"4D\"", "\"3S\"", "\"8S\"", "\"7S\""};
    for (int p = 0; p < 2; p++) {
        char *v = view(&s, p), *w = view(&swapped, p);
        assert_string_equal(v, w); /* a player cannot tell the two apart */
        for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++)
            assert_null(strstr(v, hidden[i]));
        for (size_t i = 0; i < sizeof shown / sizeof *shown; i++)
            assert_non_null(strstr(v, shown[i]));
        assert_non_null(strstr(v, "\"army_cards\":2"));
        assert_non_null(strstr(v, "\"army_cards\":3"));
        free(v);
        free(w);
    }
}

/* WA-8: the terminal drawing shows the same as the view, and colour only when asked. */
static void test_WA8_render_hides_cards_and_colours_on_request(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=8S walls0=2C,3C "
                       "shields0=KS army0=6C,9D,10D walls1=4D*,5D shields1=- army1=JD,QH "
                       "stacks=4D:3S" TAIL);
    for (int color = 0; color < 2; color++) {
        FILE *f = tmpfile();
        assert_non_null(f);
        G->render(&s, 0, f, color);
        long len = ftell(f);
        rewind(f);
        char buf[4096] = "";
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        assert_true(len > 0 && got == (size_t)len);
        assert_true((strchr(buf, '\x1b') != NULL) == (color == 1));
        assert_non_null(strstr(buf, "[##]"));
        assert_non_null(strstr(buf, "4D"));
        assert_non_null(strstr(buf, "3S"));
        assert_null(strstr(buf, "6C")); /* the attacker's next card, not yet flipped */
        assert_null(strstr(buf, "9D"));
        assert_null(strstr(buf, "QH"));
        assert_null(strstr(buf, "5D"));
    }
}

/* ---- project rulings -------------------------------------------------------------------- */

/* WA-P2: walls keep their order and close up when one goes; captured cards join the end in
 * card order (2C before 5H); "attack wall N" counts from the left as drawn. */
static void test_WAP2_wall_numbering(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                       "shields0=- army0=KC,8H walls1=4D,9S,JD shields1=- army1=10D stacks=-" TAIL);
    rp_test_play(G, &s, "attack wall 1"); /* K beats 4 */
    assert_int_equal(s.p[1].nwalls, 2);
    assert_int_equal(s.p[1].walls[0], C("9S"));
    assert_int_equal(s.p[1].walls[1], C("JD"));
    rp_test_play(G, &s, "attack wall 1"); /* 8H against 9S */
    assert_true(s.stack_target[0] == C("9S"));
}

/* WA-P4: shields are never turned face down (WA-5 turns walls; WA-8 keeps shields public). */
static void test_WAP4_shields_stay_face_up(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=3C,REST discard=- walls0=2C,4C "
                       "shields0=AD army0=2H walls1=4D,9S shields1=QS,JD army1=9D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 2");
    rp_test_play(G, &s, "leave");
    assert_int_equal(s.turn, 2);
    char *v = view(&s, 0);
    assert_non_null(strstr(v, "\"shields\":[\"AD\"]"));
    assert_non_null(strstr(v, "\"shields\":[\"QS\",\"JD\"]"));
    free(v);
}

/* ---- events: what each viewer is told (issue 12) --------------------------------------- */

/* One event as a test expects it: kind, seat (-1: none), whether it reveals something, the
 * sentence, and the names of its "cards" separated by spaces ("" when it names none). */
typedef struct want_event {
    const char *kind;
    int seat;
    bool reveal;
    const char *text;
    const char *cards;
} want_event;

/* The names in a JSON array, separated by spaces ("null" for a hidden card). */
static void names_of(const cJSON *array, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    const cJSON *card;
    cJSON_ArrayForEach (card, array)
        len += (size_t)snprintf(out + len, size - len, "%s%s", len ? " " : "",
                                cJSON_IsString(card) ? card->valuestring : "null");
}

/* The events of `move` in s, told to the spectator: checked to be the same for Blue and Red
 * (WA-8: a seat sees no more than the public table), then returned (caller frees). */
static cJSON *events_of(const wa_state *s, const char *move, rp_action *action)
{
    rp_error err = {{0}};
    if (rp_parse_move(G, s, move, action, &err) < 0)
        fail_msg("move '%s': %s", move, err.msg);
    cJSON *told = rp_events_cjson(G, s, *action, RP_SPECTATOR, &err);
    assert_non_null(told);
    for (int seat = 0; seat < 2; seat++) {
        cJSON *own = rp_events_cjson(G, s, *action, seat, &err);
        assert_non_null(own);
        if (!cJSON_Compare(own, told, true))
            fail_msg("seat %d is told other events than the spectator", seat);
        cJSON_Delete(own);
    }
    return told;
}

/* Play `move` in s and check that its events are exactly `want`, in order, for every viewer. */
static void expect_events(wa_state *s, const char *move, const want_event *want, int n)
{
    rp_action action;
    cJSON *told = events_of(s, move, &action);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach (e, told) {
        char *dump = cJSON_PrintUnformatted(e);
        if (i >= n)
            fail_msg("'%s': unexpected event %s", move, dump);
        const cJSON *seat = cJSON_GetObjectItemCaseSensitive(e, "seat");
        char cards[512];
        names_of(cJSON_GetObjectItemCaseSensitive(e, "cards"), cards, sizeof cards);
        if (strcmp(cJSON_GetObjectItemCaseSensitive(e, "kind")->valuestring, want[i].kind) != 0 ||
            (seat ? seat->valueint : -1) != want[i].seat ||
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reveal")) != want[i].reveal ||
            strcmp(cJSON_GetObjectItemCaseSensitive(e, "text")->valuestring, want[i].text) != 0 ||
            strcmp(cards, want[i].cards) != 0)
            fail_msg("'%s': event %d is %s\nwanted %s seat %d reveal %d cards '%s'\n  \"%s\"", move,
                     i + 1, dump, want[i].kind, want[i].seat, want[i].reveal, want[i].cards,
                     want[i].text);
        free(dump);
        i++;
    }
    if (i != n)
        fail_msg("'%s': %d events, wanted %d", move, i, n);
    cJSON_Delete(told);
    G->apply(s, action);
}

/* The view's "revealed" list, as names separated by spaces. */
static void revealed_of(const wa_state *s, char *out, size_t size)
{
    cJSON *v = G->json->view(s, RP_SPECTATOR);
    names_of(cJSON_GetObjectItemCaseSensitive(v, "revealed"), out, size);
    cJSON_Delete(v);
}

/* Rulebook: "If the target card is face-down, flip it over to reveal it", "If your card is
 * higher, then discard both the target card and the army card"; issue 12's sentence. */
static void test_events_attack_turns_up_a_wall_that_falls(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C shields0=- "
                       "army0=KC,8H walls1=4D,9S shields1=- army1=10D stacks=-" TAIL);
    const want_event want[] = {
        {"flip", 0, true,
         "Blue flips KC onto Red's wall 2 (turned up: 9S): 13 beats 9, the "
         "wall falls.",
         "9S KC"},
        {"wall-falls", 1, false,
         "Red's wall 2 (9S) and the stack (KC) are discarded; Red has "
         "1 wall left.",
         "9S KC"},
    };
    /* The fall names the stack that took the wall (the only one, stack 1), as the client
     * marks it: a stack number off by one (make mutants) is caught here. */
    rp_action action;
    cJSON *told = events_of(&s, "attack wall 2", &action);
    const cJSON *falls = cJSON_GetArrayItem(told, 1);
    assert_non_null(falls);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(falls, "stack")->valueint, 1);
    cJSON_Delete(told);
    expect_events(&s, "attack wall 2", want, 2);
    char revealed[64];
    revealed_of(&s, revealed, sizeof revealed);
    assert_string_equal(revealed, "9S KC"); /* the wall, then the army card */
}

/* WA-4: a flip that does not win asks the defender; "leave" keeps the stack in play. */
static void test_events_flip_that_does_not_win_and_leave(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C shields0=- "
                       "army0=5H,6H walls1=4D,9S shields1=QS army1=7D stacks=-" TAIL);
    const want_event flip[] = {
        {"flip", 0, true,
         "Blue flips 5H onto Red's shield 1 (QS): 5 does not beat 12; Red may "
         "leave it or counter-attack.",
         "5H QS"},
    };
    expect_events(&s, "attack shield 1", flip, 1);
    const want_event leave[] = {
        {"leave", 1, false, "Red leaves Blue's stack 1 (total 5, against QS) in play.", ""},
    };
    expect_events(&s, "leave", leave, 1);
    char revealed[64];
    revealed_of(&s, revealed, sizeof revealed);
    assert_string_equal(revealed, ""); /* leaving turns nothing up */
}

/* WA-13: with no army card the defender "must leave it", and the sentence says so. */
static void test_events_defender_without_army_must_leave(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,4C shields0=- "
                       "army0=2H walls1=4D,9S shields1=QS army1=- stacks=-" TAIL);
    const want_event want[] = {
        {"flip", 0, true,
         "Blue flips 2H onto Red's shield 1 (QS): 2 does not beat 12; Red has "
         "no army card to counter with and must leave it.",
         "2H QS"},
    };
    expect_events(&s, "attack shield 1", want, 1);
}

/* Rulebook: "adding the number of the armies together": the sentence shows the sum; and a
 * side's last shield falling opens its walls ("until your opponent's shield cards are
 * eliminated"). */
static void test_events_stack_total_and_shields_falling(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C shields0=- "
                       "army0=8C,6H walls1=4D,9S shields1=QS,JD army1=7D stacks=QS:5H" TAIL);
    const want_event stacked[] = {
        {"flip", 0, true,
         "Blue flips 8C onto stack 1 against Red's shield 1 (QS): 5 + 8 = 13 "
         "beats 12, the shield falls.",
         "8C QS"},
        {"shield-falls", 1, false,
         "Red's shield 1 (QS) and the stack (5H, 8C) are discarded; "
         "Red has 1 shield left.",
         "5H 8C QS"},
    };
    expect_events(&s, "stack 1", stacked, 2);
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C shields0=- "
                       "army0=KH,6H walls1=4D,9S shields1=QS army1=7D stacks=-" TAIL);
    const want_event last[] = {
        {"flip", 0, true,
         "Blue flips KH onto Red's shield 1 (QS): 13 beats 12, the shield "
         "falls.",
         "QS KH"},
        {"shield-falls", 1, false,
         "Red's shield 1 (QS) and the stack (KH) are discarded; Red "
         "has no shields left: its walls may now be attacked.",
         "QS KH"},
    };
    expect_events(&s, "attack shield 1", last, 2);
}

/* WA-4 and WA-14: a winning counter; the captured cards become face-down walls, hidden from
 * both players (WA-8), so no event names them afterwards, only how many and where (WA-P7:
 * "cards going face down ... are counted, never named afterwards"; events_of checks that both
 * seats are told what the spectator is). */
static void test_events_counter_captures_without_naming_the_new_walls(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, DEFEND_HEAD "deck=REST discard=- walls0=2S,3S shields0=- army0=6H,7H "
                         "walls1=4D,9S* shields1=- army1=10D,8D stacks=9S:2C+5H" TAIL);
    rp_action action;
    cJSON *told = events_of(&s, "counter", &action);
    char *dump = cJSON_PrintUnformatted(told);
    assert_null(strstr(dump, "2C"));
    assert_null(strstr(dump, "5H"));
    free(dump);
    cJSON_Delete(told);
    const want_event want[] = {
        {"counter", 1, true,
         "Red counter-attacks Blue's stack 1 (total 7) with 10D: 10 beats 7, "
         "so Red captures the stack.",
         "10D"},
        {"capture", 1, false,
         "The stack's 2 cards become Red's face-down walls 3 and 4; 10D is "
         "discarded.",
         ""},
    };
    expect_events(&s, "counter", want, 2);
    char *v = view(&s, RP_SPECTATOR);
    assert_non_null(strstr(v, "\"walls\":[null,\"9S\",null,null]"));
    free(v);
    load(&s, DEFEND_HEAD "deck=REST discard=- walls0=2S,3S shields0=- army0=6H,7H "
                         "walls1=4D,9S* shields1=- army1=10D stacks=9S:5H" TAIL);
    const want_event one[] = {
        {"counter", 1, true,
         "Red counter-attacks Blue's stack 1 (total 5) with 10D: 10 beats 5, "
         "so Red captures the stack.",
         "10D"},
        {"capture", 1, false,
         "The stack's card becomes Red's face-down wall 3; 10D is "
         "discarded.",
         ""},
    };
    expect_events(&s, "counter", one, 2);
}

/* WA-4: "Otherwise the counter and the stack are discarded": named, the discard is public;
 * the stack's target is still the wall it was (the record's flags say wall, not shield). */
static void test_events_counter_that_fails(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, DEFEND_HEAD "deck=REST discard=- walls0=2S,3S shields0=- army0=6H,7H "
                         "walls1=4D,9S* shields1=- army1=7D stacks=9S:2C+5H" TAIL);
    rp_action action;
    cJSON *told = events_of(&s, "counter", &action);
    const cJSON *counter = cJSON_GetArrayItem(told, 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(counter, "target_kind")->valuestring,
                        "wall");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(counter, "target_number")->valueint, 2);
    cJSON_Delete(told);
    const want_event want[] = {
        {"counter", 1, true,
         "Red counter-attacks Blue's stack 1 (total 7) with 7D: 7 does not "
         "beat 7, so 7D and the stack (2C, 5H) are discarded.",
         "2C 5H 7D"},
    };
    expect_events(&s, "counter", want, 1);
}

/* WA-5: the end of a turn (stacks discarded, walls turned down), the replenish, the next
 * turn. */
static void test_events_turn_end_replenish_and_next_turn(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, "wa1 turn=1 cap=200 attacker=0 phase=defend pending=2 winner=- "
             "deck=4C,2D,3D,5D,6D,REST discard=- walls0=2S,3S shields0=KS army0=- "
             "walls1=4D*,9S*,JD shields1=- army1=8D stacks=4D:3C,9S:5H" TAIL);
    const want_event want[] = {
        {"leave", 1, false, "Red leaves Blue's stack 2 (total 5, against 9S) in play.", ""},
        {"turn-end", 0, false,
         "Blue's army deck is empty, so the turn ends: the 2 unresolved "
         "stacks (3C, 5H) are discarded and Red's face-up walls are turned "
         "face down.",
         "3C 5H"},
        {"replenish", 0, true,
         "Blue flips 4C to replenish: 4C is discarded and Blue is dealt 4 "
         "army cards.",
         "4C"},
        {"turn", 1, false, "Turn 2: Red attacks with 1 army card.", ""},
    };
    expect_events(&s, "leave", want, 4);
}

/* WA-11: a face card flipped to replenish becomes a shield. */
static void test_events_replenish_face_card_becomes_a_shield(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=KC,5C,REST discard=- walls0=2C,4C "
                       "shields0=- army0=2H walls1=4D,9S shields1=QS army1=9D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    const want_event want[] = {
        {"leave", 1, false, "Red leaves Blue's stack 1 (total 2, against QS) in play.", ""},
        {"turn-end", 0, false,
         "Blue's army deck is empty, so the turn ends: the unresolved "
         "stack (2H) is discarded.",
         "2H"},
        {"shield", 0, true,
         "Blue flips KC to replenish: a face card, it becomes Blue's shield "
         "1.",
         "KC"},
        {"turn", 1, false, "Turn 2: Red attacks with 1 army card.", ""},
    };
    expect_events(&s, "leave", want, 4);
}

/* WA-6, WA-10, WA-12: the replenish flip is discarded, the pile reshuffled to deal, fewer
 * cards dealt; Red's turn without army cards is only a replenish, with nothing left to flip.
 * WA-P7: the cards turned up are named to both players and spectators (events_of) and stay
 * known for the rest of the move although the reshuffle hid them again: the view lists them
 * and they are no secret (the captured QS, a shield before, is hidden once more). */
static void test_events_reshuffle_short_deal_and_empty_turn(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=4C discard=- walls0=REST shields0=- "
                       "army0=AH walls1=4D shields1=QS army1=- stacks=-" TAIL);
    const want_event want[] = {
        {"flip", 0, true,
         "Blue flips AH onto Red's shield 1 (QS): 14 beats 12, the shield "
         "falls.",
         "QS AH"},
        {"shield-falls", 1, false,
         "Red's shield 1 (QS) and the stack (AH) are discarded; Red "
         "has no shields left: its walls may now be attacked.",
         "QS AH"},
        {"turn-end", 0, false, "Blue's army deck is empty, so the turn ends.", ""},
        {"replenish", 0, true,
         "Blue flips 4C to replenish: 4C is discarded and Blue is dealt "
         "the only 3 cards left.",
         "4C"},
        {"reshuffle", -1, true,
         "The main deck is empty: the discard pile (3 cards) is shuffled "
         "into a new main deck.",
         ""},
        {"turn", 1, false, "Turn 2: Red has no army cards, so the turn is only a replenish.", ""},
        {"no-replenish", 1, false,
         "Red cannot replenish: the main deck and the discard pile "
         "are empty.",
         ""},
        {"turn", 0, false, "Turn 3: Blue attacks with 3 army cards.", ""},
    };
    expect_events(&s, "attack shield 1", want, 8);
    assert_int_equal(set_of(s.p[0].army, 3), BIT(C("AH")) | BIT(C("QS")) | BIT(C("4C")));
    char revealed[64];
    revealed_of(&s, revealed, sizeof revealed);
    assert_string_equal(revealed, "AH 4C");
    char secret[512], want_secret[512] = "";
    assert_true(G->secret_names(&s, RP_SPECTATOR, secret, sizeof secret) > 0);
    for (int c = 0; c < WA_CARDS; c++) {
        if (c == C("AH") || c == C("4C"))
            continue;
        char name[4];
        wa_card_to_text(c, name);
        snprintf(want_secret + strlen(want_secret), sizeof want_secret - strlen(want_secret),
                 "%s%s", *want_secret ? " " : "", name);
    }
    assert_string_equal(secret, want_secret);
}

/* WA-12 and WA-15 when nothing is left to play: no army cards and no card to draw, so every
 * turn to the cap is an empty replenish; the game goes there at once and is scored (Red would
 * attack in the even turns, so turn 200 is Red's). */
static void test_events_nothing_left_runs_to_the_cap(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, "wa1 turn=5 cap=200 attacker=0 phase=defend pending=1 winner=- deck=- discard=- "
             "walls0=REST shields0=- army0=- walls1=2C shields1=AS army1=- stacks=AS:KH" TAIL);
    const want_event want[] = {
        {"leave", 1, false, "Red leaves Blue's stack 1 (total 13, against AS) in play.", ""},
        {"turn-end", 0, false,
         "Blue's army deck is empty, so the turn ends: the unresolved "
         "stack (KH) is discarded.",
         "KH"},
        {"reshuffle", -1, true,
         "The main deck is empty: the discard pile (1 card) is shuffled "
         "into a new main deck.",
         ""},
        {"shield", 0, true,
         "Blue flips KH to replenish: a face card, it becomes Blue's shield "
         "1.",
         "KH"},
        {"idle", -1, false,
         "Neither player has army cards and no card is left to draw: turns 6 "
         "to 200 pass without play.",
         ""},
        {"game-over", 0, false,
         "The turn cap (200 turns) is reached: Blue wins with 49 walls "
         "to 1.",
         ""},
    };
    expect_events(&s, "leave", want, 6);
    assert_int_equal(s.turn, 200);
    assert_int_equal(s.attacker, 1);
    assert_int_equal(s.winner, 0);
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
}

/* Blue, with the walls `walls0`, attacks Red's last wall with a 9 and wins: the events say
 * so with the score `game_over`, and Blue's screen ends with `screen`. */
static void expect_no_walls_end(const char *walls0, const char *game_over, const char *screen)
{
    wa_state s;
    char text[512];
    snprintf(text, sizeof text,
             BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=%s shields0=- "
                       "army0=9C,6H,7H walls1=5D shields1=- army1=8D stacks=-" TAIL,
             walls0);
    load(&s, text);
    const want_event want[] = {
        {"flip", 0, true,
         "Blue flips 9C onto Red's wall 1 (turned up: 5D): 9 beats 5, the wall "
         "falls.",
         "5D 9C"},
        {"wall-falls", 1, false,
         "Red's wall 1 (5D) and the stack (9C) are discarded; Red has "
         "no walls left.",
         "5D 9C"},
        {"game-over", 0, false, game_over, ""},
    };
    expect_events(&s, "attack wall 1", want, 3);
    char *shown = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&shown, &len);
    G->render(&s, 0, out, false);
    fclose(out);
    if (!strstr(shown, screen))
        fail_msg("the screen lacks \"%s\":\n%s", screen, shown);
    free(shown);
}

/* WA-7, WA-15: the end at once when the last wall falls, with the score. */
static void test_events_game_over_without_walls(void **unused)
{
    (void)unused;
    expect_no_walls_end("2C,3C", "Red has no walls left: Blue wins, 2 walls to 0.",
                        "Game over: Blue (you) wins, 2 walls to 0 (no walls left).");
}

/* WA-7: a winner left with a single wall is told "1 wall", in the event and on the screen. */
static void test_game_over_with_one_wall_left(void **unused)
{
    (void)unused;
    expect_no_walls_end("2C", "Red has no walls left: Blue wins, 1 wall to 0.",
                        "Game over: Blue (you) wins, 1 wall to 0 (no walls left).");
}

/* WA-7, WA-15: at the turn cap more walls win (shields do not count), equal walls draw. */
static void test_events_game_over_at_the_turn_cap(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, "wa1 turn=200 cap=200 attacker=0 phase=attack pending=- winner=- deck=KC,REST "
             "discard=- walls0=2C,3C shields0=KS,AS,KD army0=2H walls1=4D,5D,6D shields1=QS "
             "army1=9D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    const want_event win[] = {
        {"leave", 1, false, "Red leaves Blue's stack 1 (total 2, against QS) in play.", ""},
        {"turn-end", 0, false,
         "Blue's army deck is empty, so the turn ends: the unresolved "
         "stack (2H) is discarded.",
         "2H"},
        {"shield", 0, true,
         "Blue flips KC to replenish: a face card, it becomes Blue's shield "
         "4.",
         "KC"},
        {"game-over", 1, false,
         "The turn cap (200 turns) is reached: Red wins with 3 walls to "
         "2.",
         ""},
    };
    expect_events(&s, "leave", win, 4);
    load(&s, "wa1 turn=200 cap=200 attacker=0 phase=attack pending=- winner=- deck=KC,REST "
             "discard=- walls0=2C,3C,7C shields0=- army0=2H walls1=4D,5D,6D shields1=QS "
             "army1=9D stacks=-" TAIL);
    rp_test_play(G, &s, "attack shield 1");
    const want_event draw[] = {
        {"leave", 1, false, "Red leaves Blue's stack 1 (total 2, against QS) in play.", ""},
        {"turn-end", 0, false,
         "Blue's army deck is empty, so the turn ends: the unresolved "
         "stack (2H) is discarded.",
         "2H"},
        {"shield", 0, true,
         "Blue flips KC to replenish: a face card, it becomes Blue's shield "
         "1.",
         "KC"},
        {"game-over", -1, false,
         "The turn cap (200 turns) is reached with 3 walls each: a "
         "draw.",
         ""},
    };
    expect_events(&s, "leave", draw, 4);
}

/* The data beside the sentences: what a client needs without reading text. */
static void test_events_carry_their_parts_as_data(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C shields0=- "
                       "army0=8C,6H walls1=4D,9S shields1=QS,JD army1=7D stacks=QS:5H" TAIL);
    rp_action action;
    cJSON *told = events_of(&s, "stack 1", &action);
    char *dump = cJSON_PrintUnformatted(cJSON_GetArrayItem(told, 0));
    assert_string_equal(dump, "{\"kind\":\"flip\",\"seat\":0,\"text\":\"Blue flips 8C onto "
                              "stack 1 against Red's shield 1 (QS): 5 + 8 = 13 beats 12, the "
                              "shield falls.\",\"reveal\":true,\"card\":\"8C\",\"target\":\"QS\","
                              "\"target_kind\":\"shield\",\"target_number\":1,\"stack\":1,"
                              "\"total\":13,\"beats\":true,\"value\":12,\"turned_up\":false,"
                              "\"cards\":[\"8C\",\"QS\"]}");
    free(dump);
    cJSON_Delete(told);
    load(&s, "wa1 turn=200 cap=200 attacker=0 phase=defend pending=1 winner=- deck=KC,REST "
             "discard=- walls0=2C,3C shields0=- army0=- walls1=4D,5D,6D shields1=QS "
             "army1=9D stacks=QS:2H" TAIL);
    told = events_of(&s, "leave", &action);
    dump = cJSON_PrintUnformatted(cJSON_GetArrayItem(told, 3));
    assert_string_equal(dump, "{\"kind\":\"game-over\",\"seat\":1,\"text\":\"The turn cap (200 "
                              "turns) is reached: Red wins with 3 walls to 2.\",\"reason\":"
                              "\"turn-cap\",\"winner\":1,\"walls\":[2,3]}");
    free(dump);
    cJSON_Delete(told);
}

/* ---- notation ------------------------------------------------------------------------- */

/* Cards are written the usual way: 7H, QS, 10D; every card round-trips. */
static void test_card_notation(void **unused)
{
    (void)unused;
    assert_int_equal(C("2C"), 0);
    assert_int_equal(C("10D"), 8 * 4 + 1);
    assert_int_equal(C("QS"), 10 * 4 + 3);
    assert_int_equal(C("AH"), 12 * 4 + 2);
    for (int c = 0; c < WA_CARDS; c++) {
        char name[4];
        wa_card_to_text(c, name);
        assert_int_equal(wa_card_from_text(name, strlen(name)), c);
    }
    static const char *const bad[] = {"1C", "11D", "QX", "q", "", "10", "ZS", "qs", "AHH"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(wa_card_from_text(bad[i], strlen(bad[i])), -1);
}

/* Actions read "attack wall 3", "attack shield 1", "stack 2", "leave", "counter". */
static void test_action_notation(void **unused)
{
    (void)unused;
    wa_state s;
    rp_test_init(G, &s, "seed=1");
    static const struct {
        const char *text;
        rp_action action;
    } ok[] = {{"attack wall 3", WA_ACT_WALL + 2},
              {"attack shield 1", WA_ACT_SHIELD},
              {"stack 2", WA_ACT_STACK + 1},
              {"leave", WA_ACT_LEAVE},
              {"counter", WA_ACT_COUNTER},
              {"  Attack   WALL 52 ", WA_ACT_WALL + 51},
              {"attack shield 16", WA_ACT_SHIELD + 15}};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        rp_action a = RP_NO_ACTION;
        rp_error err = {{0}};
        assert_int_equal(G->action_from_text(&s, ok[i].text, &a, &err), RP_OK);
        assert_int_equal(a, ok[i].action);
    }
    for (rp_action a = 0; a < WA_NUM_ACTIONS; a++) {
        char text[RP_ACTION_TEXT];
        assert_true(G->action_to_text(&s, a, text, sizeof text) > 0);
        rp_action back = RP_NO_ACTION;
        rp_error err = {{0}};
        assert_int_equal(G->action_from_text(&s, text, &back, &err), RP_OK);
        assert_int_equal(back, a);
    }
    static const char *const bad[] = {"attack wall 0",   "attack wall 53", "attack shield 17",
                                      "attack tower 1",  "stack",          "stack x",
                                      "attack wall 1 2", "counter now",    "attack wall -1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rp_action a;
        rp_error err = {{0}};
        if (G->action_from_text(&s, bad[i], &a, &err) >= 0)
            fail_msg("accepted '%s'", bad[i]);
        assert_true(strlen(err.msg) > 0);
    }
}

/* Full-state notation validates everything: each refusal names the problem and leaves the
 * state untouched. */
static void test_state_notation_refuses_inconsistent_states(void **unused)
{
    (void)unused;
    static const struct {
        const char *text, *says;
    } bad[] = {
        /* a card twice (2C in walls0 and in the deck via REST is impossible, so name it twice) */
        {BASE_HEAD " pending=- winner=- deck=REST discard=2C walls0=2C,3C "
                   "shields0=- army0=5H,6H walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "twice"},
        /* a number card as a shield */
        {BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=9C army0=5H,6H walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "face"},
        /* a stack above its target would have won */
        {BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=5H,6H walls1=4D shields1=QS army1=7D stacks=QS:10H+4H" TAIL,
         "WA-3"},
        /* a wall target while the defender has shields */
        {BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=5H,6H walls1=9D* shields1=QS army1=7D stacks=9D:4H" TAIL,
         "WA-3"},
        /* a face-up wall of the attacker */
        {BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C*,3C "
                   "shields0=- army0=5H,6H walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "WA-5"},
        /* defend without a stack */
        {"wa1 turn=1 cap=200 attacker=0 phase=defend pending=1 winner=- deck=REST "
         "discard=- walls0=2C shields0=- army0=6H walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "pending"},
        /* a winner while play goes on */
        {BASE_HEAD " pending=- winner=1 deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=5H,6H walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "winner"},
        /* over with walls on both sides before the cap */
        {"wa1 turn=5 cap=200 attacker=0 phase=over pending=- winner=1 deck=REST discard=- "
         "walls0=2C shields0=- army0=6H walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "WA-7"},
        /* turn past the cap */
        {"wa1 turn=201 cap=200 attacker=0 phase=attack pending=- winner=- deck=REST "
         "discard=- walls0=2C shields0=- army0=5H,6H walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "turn"},
        /* an even rng increment */
        {BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=5H,6H walls1=4D shields1=QS army1=7D stacks=-"
                   " revealed=- rng=00000000000000aa.0000000000000002",
         "rng"},
        /* an attack to choose with no army card to flip (WA-P1, WA-5) */
        {BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=- walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "army card"},
        /* a pending stack while the attacker is to choose */
        {BASE_HEAD " pending=1 winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=5H walls1=4D shields1=QS army1=7D stacks=QS:6H" TAIL,
         "pending"},
        /* the old notation with a flipped card awaiting placement no longer exists */
        {BASE_HEAD " flipped=5H pending=- winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=6H walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "pending"},
        {"wa1 turn=1 cap=200 attacker=0 phase=place pending=- winner=- deck=REST discard=- "
         "walls0=2C,3C shields0=- army0=6H walls1=4D shields1=QS army1=7D stacks=-" TAIL,
         "phase"},
        /* trailing junk */
        {BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C "
                   "shields0=- army0=5H,6H walls1=4D shields1=QS army1=7D stacks=-" TAIL " x=1",
         "unexpected"},
    };
    wa_state s, before;
    rp_test_init(G, &s, "seed=4");
    memcpy(&before, &s, sizeof s);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[RP_STATE_TEXT];
        expand(bad[i].text, text);
        rp_error err = {{0}};
        if (G->state_from_text(&s, text, &err) >= 0)
            fail_msg("accepted: %s", text);
        if (!strstr(err.msg, bad[i].says))
            fail_msg("message '%s' does not mention '%s'", err.msg, bad[i].says);
        assert_memory_equal(&s, &before, sizeof s);
    }
    /* and a missing card */
    rp_error err = {{0}};
    assert_true(G->state_from_text(&s,
                                   BASE_HEAD " pending=- winner=- deck=- "
                                             "discard=- walls0=2C shields0=- army0=5H,6H "
                                             "walls1=4D shields1=QS army1=7D stacks=-" TAIL,
                                   &err) < 0);
    assert_non_null(strstr(err.msg, "missing"));
    assert_memory_equal(&s, &before, sizeof s);
}

/* evaluate: a share in [0,1] from public counts; more walls is better. */
static void test_evaluate_prefers_more_walls(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C,4C,5C "
                       "shields0=- army0=5H,6H walls1=4D shields1=QS army1=7D stacks=-" TAIL);
    double e0 = G->evaluate(&s, 0), e1 = G->evaluate(&s, 1);
    assert_true(e0 > 0.5 && e0 <= 1.0);
    assert_true(e1 < 0.5 && e1 >= 0.0);
}

/* The features a fitted evaluation would weigh (wa_eval_features; docs/ai.md, "Strength
 * changes tried") come from the public view only (WA-8: nobody sees a face-down card, owner
 * included), so dealing the hidden cards afresh never changes them; and each is the player's
 * side less the opponent's, so the two seats' are opposite. Over a few random games, at every
 * step. */
static void test_eval_features_public_and_opposite(void **unused)
{
    (void)unused;
    for (int g = 0; g < 5; g++) {
        wa_state s;
        char opts[64];
        snprintf(opts, sizeof opts, "seed=%d", g + 101);
        rp_test_init(G, &s, opts);
        rp_rng rng;
        rp_rng_seed(&rng, (uint64_t)g, 31);
        int steps = 0;
        while (G->current_player(&s) != RP_TERMINAL) {
            assert_true(++steps < 200 * 40); /* the turn cap ends every game (WA-7) */
            double x0[WA_EVAL_FEATURES], x1[WA_EVAL_FEATURES], dealt[WA_EVAL_FEATURES];
            wa_eval_features(&s, 0, x0);
            wa_eval_features(&s, 1, x1);
            wa_state other = s;
            wa_determinize(&other, steps & 1, &rng);
            wa_eval_features(&other, 0, dealt);
            for (int f = 0; f < WA_EVAL_FEATURES; f++) {
                assert_true(x0[f] == -x1[f]);
                assert_true(dealt[f] == x0[f]);
            }
            rp_test_random_step(G, &s, &rng);
        }
    }
}

/* ---- the rest of the interface ---------------------------------------------------------- */

/* WA-P6: the rulebook names no seats; player 0 (dealt first) is Blue, player 1 Red, and the
 * view and the screen use the names. */
static void test_WAP6_seat_names(void **unused)
{
    (void)unused;
    assert_string_equal(rp_seat_name(G, 0), "Blue");
    assert_string_equal(rp_seat_name(G, 1), "Red");
    wa_state s;
    rp_test_init(G, &s, "seed=2");
    char *v = view(&s, 0);
    assert_non_null(strstr(v, "\"players\":[{\"name\":\"Blue\""));
    assert_non_null(strstr(v, "{\"name\":\"Red\""));
    free(v);
}

/* WA-8: the spectator sees the very table the players see ("seat" aside), and the screen
 * drawn for them addresses nobody as "you". */
static void test_WA8_spectator_sees_the_public_table(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=7S,8S walls0=2C,3C "
                       "shields0=KS army0=6C,9D,10D walls1=4D*,5D shields1=- army1=JD,QH "
                       "stacks=4D:3S" TAIL);
    cJSON *spectator = G->json->view(&s, RP_SPECTATOR);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(spectator, "seat")));
    for (int seat = 0; seat < 2; seat++) {
        cJSON *own = G->json->view(&s, seat);
        assert_int_equal(cJSON_GetObjectItemCaseSensitive(own, "seat")->valueint, seat);
        cJSON_DeleteItemFromObject(own, "seat");
        cJSON *copy = cJSON_Duplicate(spectator, true);
        cJSON_DeleteItemFromObject(copy, "seat");
        assert_true(cJSON_Compare(own, copy, true));
        cJSON_Delete(own);
        cJSON_Delete(copy);
    }
    cJSON_Delete(spectator);
    char *screen = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&screen, &len);
    G->render(&s, RP_SPECTATOR, out, false);
    fclose(out);
    assert_null(strstr(screen, "(you)"));
    assert_non_null(strstr(screen, "Waiting for Blue to choose an attack."));
    assert_null(strstr(screen, "6C"));
    free(screen);
}

/* An action and its data form, as rp_action_cjson gives them ("id" and "text" first). */
static void expect_action_json(const wa_state *s, const char *move, const char *json)
{
    rp_action action;
    rp_error err = {{0}};
    if (rp_parse_move(G, s, move, &action, &err) < 0)
        fail_msg("move '%s': %s", move, err.msg);
    cJSON *o = rp_action_cjson(G, s, action);
    char *text = cJSON_PrintUnformatted(o);
    assert_string_equal(text, json);
    free(text);
    cJSON_Delete(o);
}

/* Actions as data name only public cards: a face-down wall's card is null (WA-8). */
static void test_actions_as_data(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C shields0=- "
                       "army0=6C,9D walls1=4D*,5D,7D* shields1=- army1=JD stacks=4D:3S" TAIL);
    expect_action_json(&s, "attack wall 2",
                       "{\"id\":1,\"text\":\"attack wall 2\",\"kind\":\"attack\",\"wall\":2,"
                       "\"target\":null}");
    expect_action_json(&s, "attack wall 3",
                       "{\"id\":2,\"text\":\"attack wall 3\",\"kind\":\"attack\",\"wall\":3,"
                       "\"target\":\"7D\"}");
    expect_action_json(&s, "stack 1",
                       "{\"id\":68,\"text\":\"stack 1\",\"kind\":\"stack\",\"stack\":1,"
                       "\"target\":\"4D\",\"total\":3}");
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,3C shields0=- "
                       "army0=5H,6H walls1=4D,9S shields1=QS army1=7D stacks=-" TAIL);
    expect_action_json(&s, "attack shield 1",
                       "{\"id\":52,\"text\":\"attack shield 1\",\"kind\":\"attack\",\"shield\":1,"
                       "\"target\":\"QS\"}");
    rp_test_play(G, &s, "attack shield 1");
    expect_action_json(&s, "leave",
                       "{\"id\":120,\"text\":\"leave\",\"kind\":\"leave\",\"stack\":1}");
    expect_action_json(&s, "counter",
                       "{\"id\":121,\"text\":\"counter\",\"kind\":\"counter\",\"stack\":1}");
}

/* Why `move` is not legal in s, as a player is told it. */
static void expect_refusal(const wa_state *s, const char *move, const char *why)
{
    rp_action action;
    rp_error err = {{0}};
    if (G->action_from_text(s, move, &action, &err) < 0)
        fail_msg("move '%s': %s", move, err.msg);
    assert_false(rp_is_legal(G, s, action));
    char text[RP_ERROR_TEXT];
    rp_explain_illegal(G, s, action, text, sizeof text);
    assert_string_equal(text, why);
}

/* explain_illegal says why in the game's terms: the rulebook's "You cannot attack wall cards
 * until your opponent's shield cards are eliminated", WA-9, WA-13, whose move it is. */
static void test_explain_illegal_in_the_games_terms(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,4C shields0=- "
                       "army0=3C,2D walls1=4D,9S shields1=QS,JD army1=10D stacks=QS:5H" TAIL);
    expect_refusal(&s, "attack wall 1",
                   "Red still has 2 shields: no wall can be attacked "
                   "until the shields are gone");
    expect_refusal(&s, "attack shield 1",
                   "Red's shield 1 (QS) already has your stack 1 against "
                   "it: add to it with 'stack 1' (WA-9)");
    expect_refusal(&s, "attack shield 3", "Red has only 2 shields");
    expect_refusal(&s, "stack 2", "you have 1 stack: stack 1..1");
    expect_refusal(&s, "counter",
                   "'counter' answers a stack that did not win; now you choose "
                   "where your next army card goes");
    rp_action legal = WA_ACT_SHIELD + 1;
    char buf[RP_ERROR_TEXT];
    assert_true(G->explain_illegal(&s, legal, buf, sizeof buf) < 0); /* it is legal */
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=- walls0=2C,4C shields0=- "
                       "army0=3C,2D walls1=4D,9S shields1=- army1=- stacks=-" TAIL);
    expect_refusal(&s, "attack shield 1", "Red has no shields left: attack a wall");
    expect_refusal(&s, "attack wall 3", "Red has only 2 walls");
    expect_refusal(&s, "stack 1", "you have no stack yet: open one with 'attack wall N'");
    rp_test_play(G, &s, "attack wall 2");
    expect_refusal(&s, "attack wall 1",
                   "Blue's stack 1 did not beat its target: first you "
                   "answer it with 'leave' or 'counter'");
    expect_refusal(&s, "counter",
                   "you have no army cards to counter with: you can only 'leave' "
                   "it (WA-13)");
}

/* The hidden cards, worked out from the referee's state independently of the game: face-down
 * walls (but those both players have seen), army decks and the main deck, less what the last
 * action turned up (public). */
static void expected_secrets(const wa_state *s, char *out, size_t size)
{
    uint64_t hidden = set_of(s->deck, s->ndeck);
    for (int p = 0; p < 2; p++)
        hidden |= (set_of(s->p[p].walls, s->p[p].nwalls) & ~s->faceup & ~s->seen) |
                  set_of(s->p[p].army, s->p[p].narmy);
    hidden &= ~set_of(s->revealed, s->nrevealed);
    size_t len = 0;
    out[0] = '\0';
    for (int c = 0; c < WA_CARDS; c++) {
        if (!(hidden & BIT(c)))
            continue;
        char name[4];
        wa_card_to_text(c, name);
        len += (size_t)snprintf(out + len, size - len, "%s%s", len ? " " : "", name);
    }
}

/* secret_names against the referee's state, for every viewer (WA-8: the same for all), and no
 * secret name in any viewer's view or screen. */
static void check_secret_names(const wa_state *s)
{
    char want[RP_STATE_TEXT], got[RP_STATE_TEXT];
    expected_secrets(s, want, sizeof want);
    for (int viewer = RP_SPECTATOR; viewer < 2; viewer++) {
        if (viewer == RP_TERMINAL)
            continue;
        assert_true(G->secret_names(s, viewer, got, sizeof got) >= 0);
        assert_string_equal(got, want);
        char *v = view(s, viewer), *screen = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&screen, &len);
        G->render(s, viewer, out, false);
        fclose(out);
        char copy[RP_STATE_TEXT];
        snprintf(copy, sizeof copy, "%s", got);
        for (char *name = strtok(copy, " "); name; name = strtok(NULL, " ")) {
            char quoted[8], boxed[8];
            snprintf(quoted, sizeof quoted, "\"%s\"", name);
            snprintf(boxed, sizeof boxed, "[%s]", name);
            if (strstr(v, quoted) || strstr(screen, boxed))
                fail_msg("%s sees the hidden card %s", rp_viewer_name(G, viewer), name);
        }
        free(v);
        free(screen);
    }
}

static void test_secret_names_match_the_referee_state(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=7S,8S walls0=2C,3C "
                       "shields0=KS army0=6C,9D,10D walls1=4D*,5D shields1=- army1=JD,QH "
                       "stacks=4D:3S" TAIL);
    check_secret_names(&s);
    char got[RP_STATE_TEXT];
    assert_true(G->secret_names(&s, 0, got, sizeof got) > 0);
    assert_null(strstr(got, "4D"));                  /* face up */
    assert_non_null(strstr(got, "6C"));              /* the attacker's own next card (WA-8) */
    assert_true(G->secret_names(&s, 0, got, 8) < 0); /* a small buffer is refused */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%llu", (unsigned long long)seed);
        rp_test_init(G, &s, opts);
        rp_rng rng;
        rp_rng_seed(&rng, seed, 17);
        for (int step = 0; G->current_player(&s) != RP_TERMINAL; step++) {
            if (step % 7 == 0)
                check_secret_names(&s);
            rp_test_random_step(G, &s, &rng);
        }
        check_secret_names(&s);
    }
}

/* config_of reports the options a state is played under: a loaded state's cap (WA-P3). */
static void test_config_of_reports_the_turn_cap_in_effect(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, "wa1 turn=3 cap=37 attacker=0 phase=attack pending=- winner=- deck=REST "
             "discard=- walls0=2C,3C shields0=- army0=5H walls1=4D shields1=QS army1=7D "
             "stacks=-" TAIL);
    rp_config base, cfg;
    rp_config_default(G, &base);
    base.seed = 99;
    rp_config_of(G, &s, &base, &cfg);
    assert_int_equal(cfg.players, 2);
    assert_int_equal(rp_config_int(G, &cfg, "turn-cap"), 37);
    assert_true(cfg.seed == 99);
    char text[128];
    assert_true(rp_config_to_text(G, &cfg, text, sizeof text) > 0);
    assert_non_null(strstr(text, "turn-cap=37"));
    rp_test_init(G, &s, "turn-cap=12 seed=3");
    rp_config_of(G, &s, &base, &cfg);
    assert_int_equal(rp_config_int(G, &cfg, "turn-cap"), 12);
}

/* turn_number is the rulebook's turn: one player's attacks and replenish (WA-12, WA-15). */
static void test_turn_number_counts_the_rulebooks_turns(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, "wa1 turn=12 cap=200 attacker=0 phase=attack pending=- winner=- deck=REST "
             "discard=- walls0=2C,3C shields0=- army0=5H walls1=4D,6D shields1=- army1=7D "
             "stacks=-" TAIL);
    assert_int_equal(G->turn_number(&s), 12);
    rp_test_play(G, &s, "attack wall 2"); /* 5H against 6D: Red is asked */
    assert_int_equal(G->turn_number(&s), 12);
    rp_test_play(G, &s, "leave"); /* Blue's last card: the turn ends */
    assert_int_equal(G->turn_number(&s), 13);
}

/* state_ok is the whole validator: it refuses states no play reaches, whatever their source
 * (a notation, or bytes such as a broken apply would leave). */
static void test_state_ok_refuses_broken_states(void **unused)
{
    (void)unused;
    wa_state good, s;
    load(&good, DEFEND_HEAD "deck=REST discard=- walls0=2S,3S shields0=- army0=6H,7H "
                            "walls1=4D,9S* shields1=- army1=10D stacks=9S:2C+5H" TAIL);
    rp_error err = {{0}};
    assert_int_equal(G->state_ok(&good, &err), RP_OK);
    static const struct {
        const char *says;
    } cases[] = {{"totals"},       {"unused slot"}, {"WA-5"}, {"not a card"}, {"pending"},
                 {"out of range"}, {"twice"},       {"odd"},  {"to_act"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        s = good;
        switch (i) {
        case 0:
            s.stack_total[0]++;
            break;
        case 1:
            s.deck[s.ndeck] = 5;
            break;
        case 2:
            s.faceup |= BIT(C("2S"));
            break;
        case 3:
            s.revealed[0] = 60;
            s.nrevealed = 1;
            break;
        case 4:
            s.pending = 3;
            break;
        case 5:
            s.winner = 7;
            break;
        case 6:
            s.p[0].walls[1] = (uint8_t)C("2S");
            break;
        case 7:
            s.rng.inc = 2;
            break;
        default:
            s.to_act = (int8_t)s.attacker; /* the defender is asked */
            break;
        }
        err.msg[0] = '\0';
        assert_true(G->state_ok(&s, &err) < 0);
        if (!strstr(err.msg, cases[i].says))
            fail_msg("case %zu: '%s' does not mention '%s'", i, err.msg, cases[i].says);
    }
}

/* Issue 18: only the canonical text is read, so text -> state -> text is exact: no sign, no
 * leading zero, no other case, no extra space, sets in card order, this version's tag. */
static void test_state_notation_accepts_only_the_canonical_text(void **unused)
{
    (void)unused;
    char good[RP_STATE_TEXT];
    expand(BASE_HEAD " pending=- winner=- deck=REST discard=7S,8S walls0=2C,3C shields0=- "
                     "army0=5H,6H walls1=4D shields1=QS army1=7D stacks=QS:2S+3S" TAIL,
           good);
    wa_state s, before;
    rp_test_load(G, &s, good);
    char back[RP_STATE_TEXT];
    assert_true(G->state_to_text(&s, back, sizeof back) > 0);
    assert_string_equal(back, good);
    static const struct {
        const char *from, *to, *says;
    } bad[] = {
        {"turn=1 ", "turn=01 ", "leading zero"},
        {"turn=1 ", "turn=+1 ", "not a whole number"},
        {"wa1 turn", "wa1  turn", "one space"},
        {"wa1 turn", "WA1 turn", "must start with 'wa1'"},
        {"wa1 turn", "wa2 turn", "version 'wa2'"},
        {"wa1 turn=1 cap=200", "turn=1/200", "must start with 'wa1'"},
        {"discard=7S,8S", "discard=8S,7S", "canonical"},
        {"QS:2S+3S", "QS:3S+2S", "canonical"},
        {"walls0=2C", "walls0=2c", "not a card"},
        {"phase=attack", "phase=Attack", "not one of"},
        {"rng=00000000000000aa", "rng=00000000000000AA", "hex"},
        {"rng=00000000000000aa.", "rng=00000000000000aa/", "rng"},
    };
    memcpy(&before, &s, sizeof s);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[RP_STATE_TEXT];
        const char *at = strstr(good, bad[i].from);
        assert_non_null(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, bad[i].to,
                 at + strlen(bad[i].from));
        rp_error err = {{0}};
        if (G->state_from_text(&s, text, &err) >= 0)
            fail_msg("accepted: %s", text);
        if (!strstr(err.msg, bad[i].says))
            fail_msg("'%s' does not mention '%s'", err.msg, bad[i].says);
        assert_memory_equal(&s, &before, sizeof s);
    }
    char spaced[RP_STATE_TEXT + 1];
    snprintf(spaced, sizeof spaced, "%s ", good);
    rp_error err = {{0}};
    assert_true(G->state_from_text(&s, spaced, &err) < 0);
    assert_non_null(strstr(err.msg, "unexpected"));
}

/* ---- property run ---------------------------------------------------------------------- */

/* The game's own invariants: all 52 cards in exactly one place, values in range. */
static void check_invariants(const wa_state *s)
{
    uint64_t all = s->discard;
    int count = __builtin_popcountll(s->discard);
    const uint8_t *lists[7] = {s->deck,       s->p[0].walls,   s->p[0].shields, s->p[0].army,
                               s->p[1].walls, s->p[1].shields, s->p[1].army};
    const int sizes[7] = {s->ndeck,       s->p[0].nwalls,   s->p[0].nshields, s->p[0].narmy,
                          s->p[1].nwalls, s->p[1].nshields, s->p[1].narmy};
    for (int l = 0; l < 7; l++) {
        for (int i = 0; i < sizes[l]; i++) {
            assert_true(lists[l][i] < WA_CARDS);
            all |= BIT(lists[l][i]);
        }
        count += sizes[l];
    }
    uint64_t targeted = 0;
    for (int k = 0; k < s->nstacks; k++) {
        all |= s->stack_cards[k];
        int total = 0;
        for (uint64_t m = s->stack_cards[k]; m; m &= m - 1)
            total += __builtin_ctzll(m) / 4 + 2;
        assert_int_equal(total, s->stack_total[k]);
        assert_true(total <= s->stack_target[k] / 4 + 2);
        targeted |= BIT(s->stack_target[k]);
    }
    count += cards_in_stacks(s);
    assert_int_equal(count, WA_CARDS);
    assert_int_equal(all, WA_ALL_CARDS);
    assert_int_equal(targeted, s->targeted);
    for (int p = 0; p < 2; p++) {
        assert_true(s->p[p].narmy <= 10); /* a deal is at most 10 and the attacker uses all */
        for (int i = 0; i < s->p[p].nshields; i++)
            assert_true(s->p[p].shields[i] >= WA_FIRST_FACE);
    }
    assert_int_equal(s->faceup & ~set_of(s->p[s->attacker ^ 1].walls, s->p[s->attacker ^ 1].nwalls),
                     0);
    assert_true(s->turn >= 1 && s->turn <= s->cap);
    /* WA-P1: an attack is chosen only with a card to flip, and nothing is pending then. */
    if (s->phase == WA_ATTACK) {
        assert_true(s->p[s->attacker].narmy > 0);
        assert_int_equal(s->pending, WA_NONE);
    }
}

/* The discard pile as the screen tells it, read back into a set of cards: " empty", each card
 * "[2S] [9H]", or "N cards: clubs 4-5 7 K-A; hearts 2" (ranks in runs). Fails on anything else,
 * and when a grouped pile's count is not its number of cards. */
static uint64_t discard_from_screen(const char *screen)
{
    static const char *const ranks[13] = {"2", "3",  "4", "5", "6", "7", "8",
                                          "9", "10", "J", "Q", "K", "A"};
    static const char *const suits[4] = {"clubs", "diamonds", "hearts", "spades"};
    const char *line = strstr(screen, "Discard pile:");
    assert_non_null(line);
    const char *after = line + strlen("Discard pile:");
    char text[512];
    snprintf(text, sizeof text, "%.*s", (int)strcspn(after, "\n"), after);
    uint64_t set = 0;
    if (strcmp(text, " empty") == 0)
        return 0;
    int told = -1, suit = -1;
    char *save = NULL;
    for (char *word = strtok_r(text, " ;", &save); word; word = strtok_r(NULL, " ;", &save)) {
        const size_t n = strlen(word);
        if (word[0] == '[' && word[n - 1] == ']') {
            word[n - 1] = '\0';
            set |= BIT(C(word + 1));
            continue;
        }
        if (told < 0 && suit < 0 && strspn(word, "0123456789") == n) {
            told = atoi(word);
            continue;
        }
        if (strcmp(word, "cards:") == 0)
            continue;
        int which = -1;
        for (int k = 0; k < 4; k++)
            if (strcmp(word, suits[k]) == 0)
                which = k;
        if (which >= 0) {
            suit = which;
            continue;
        }
        if (suit < 0)
            fail_msg("the discard pile line has '%s' before a suit: %s", word, line);
        char *dash = strchr(word, '-');
        if (dash)
            *dash = '\0';
        int from = -1, to = -1;
        for (int r = 0; r < 13; r++) {
            if (strcmp(word, ranks[r]) == 0)
                from = r;
            if (strcmp(dash ? dash + 1 : word, ranks[r]) == 0)
                to = r;
        }
        if (from < 0 || to < from)
            fail_msg("the discard pile line has '%s'", word);
        for (int r = from; r <= to; r++) {
            char name[4];
            snprintf(name, sizeof name, "%s%c", ranks[r], "CDHS"[suit]);
            set |= BIT(C(name));
        }
    }
    if (told >= 0)
        assert_int_equal(told, __builtin_popcountll(set));
    return set;
}

/* Issue 26, "group what is long": a discard pile of more than six cards is told as its count
 * and the cards by suit, ranks in runs, which reads back to exactly the view's discard pile
 * (WA-8: it is public); a short one lists each card. */
static void check_discard_line(const wa_state *s)
{
    char *screen = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&screen, &len);
    G->render(s, 0, out, false);
    fclose(out);
    uint64_t from_view = 0;
    cJSON *v = G->json->view(s, 0), *pile = cJSON_GetObjectItem(v, "discard"), *card;
    cJSON_ArrayForEach (card, pile)
        from_view |= BIT(C(card->valuestring));
    cJSON_Delete(v);
    assert_int_equal(discard_from_screen(screen), from_view);
    const char *line = strstr(screen, "Discard pile:");
    const bool grouped =
        strstr(line, " cards:") != NULL && strstr(line, " cards:") < strchr(line, '\n');
    assert_int_equal(grouped, __builtin_popcountll(from_view) > 6);
    free(screen);
}

static void test_discard_pile_is_grouped_when_long(void **unused)
{
    (void)unused;
    wa_state s;
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=2C,2S,3C,4C,6C,10H,JH,QH,KC,AC "
                       "walls0=5C,7C shields0=KS army0=6D,9D,10D walls1=4D,5D shields1=- "
                       "army1=JD,QD stacks=-" TAIL);
    check_discard_line(&s);
    char *screen = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&screen, &len);
    G->render(&s, 0, out, false);
    fclose(out);
    /* Clubs 2, 3, 4, 6, K, A: the runs 2-4 and K-A (the ranks go 2..10, J, Q, K, A, WA-3). */
    assert_non_null(strstr(screen, "clubs 2-4 6 K-A; hearts 10-Q; spades 2"));
    free(screen);
    load(&s, BASE_HEAD " pending=- winner=- deck=REST discard=2C,AS "
                       "walls0=5C,7C shields0=KS army0=6D,9D,10D walls1=4D,5D shields1=- "
                       "army1=JD,QD stacks=-" TAIL);
    check_discard_line(&s);
}

/* Every step gets the cheap generic checks (legal list, notations, actions as data, state_ok)
 * and the game's invariants. The costly ones (views, render, determinize and events for both
 * seats and the spectator) run at every step of one game in VIEW_EVERY and at about one step
 * in VIEW_SAMPLE of the others, so the default run stays near a minute under ASan; `make soak`
 * sizes (RP_TEST_SOAK_GAMES) reach every kind of position many times over. */
#define VIEW_EVERY 8
#define VIEW_SAMPLE 16

static void test_property_random_games(void **unused)
{
    (void)unused;
    int games = rp_test_games(RP_TEST_SOAK_GAMES);
    for (int g = 0; g < games; g++) {
        wa_state s;
        char opts[64];
        snprintf(opts, sizeof opts, "seed=%d", g + 1);
        rp_test_init(G, &s, opts);
        rp_rng rng;
        rp_rng_seed(&rng, (uint64_t)g, 11);
        int steps = 0;
        while (G->current_player(&s) != RP_TERMINAL) {
            assert_true(++steps < 200 * 40); /* a turn is at most 10 flips, each answered */
            check_invariants(&s);
            rp_test_check_notation(G, &s);
            if (g % VIEW_EVERY == 0 || rp_rng_below(&rng, VIEW_SAMPLE) == 0) {
                rp_test_check_views(G, &s, &rng);
                check_discard_line(&s);
            }
            double e = G->evaluate(&s, steps & 1);
            assert_true(e >= 0.0 && e <= 1.0);
            rp_test_random_step(G, &s, &rng);
        }
        check_invariants(&s);
        rp_test_check_returns(G, &s);
        /* a finished game's notation loads back to the same bytes too */
        char text[RP_STATE_TEXT];
        assert_true(G->state_to_text(&s, text, sizeof text) > 0);
        wa_state back;
        memset(&back, 0x5A, sizeof back);
        rp_test_load(G, &back, text);
        assert_memory_equal(&back, &s, sizeof s);
        assert_true(s.winner != WA_NONE);
        if (s.p[0].nwalls == 0 || s.p[1].nwalls == 0) {
            assert_true(s.winner < 2); /* WA-7: no walls loses */
            assert_int_equal(s.p[s.winner ^ 1].nwalls, 0);
        } else {
            assert_int_equal(s.turn, s.cap); /* WA-7: else only the cap ends it */
        }
    }
}

/* WA-P8: deck=N deals and plays only the deck's lowest N cards; the notation carries no field
 * for it (its cards are the deck), its options report it, and random games keep every card of
 * the deck and no other somewhere. */
static void test_small_deck_deals_only_its_cards(void **unused)
{
    (void)unused;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        rp_config cfg;
        rp_config_default(G, &cfg);
        rp_error err;
        assert_int_equal(rp_config_set(G, &cfg, "deck=7", &err), RP_OK);
        assert_int_equal(rp_config_set(G, &cfg, "turn-cap=3", &err), RP_OK);
        cfg.seed = seed;
        wa_state s;
        assert_int_equal(G->init(&s, &cfg, &err), RP_OK);
        rp_rng rng;
        rp_rng_seed(&rng, seed, 9);
        while (G->current_player(&s) != RP_TERMINAL) {
            assert_int_equal(wa_cards_in_play(&s), (UINT64_C(1) << 7) - 1);
            assert_int_equal(G->state_ok(&s, &err), RP_OK);
            rp_config now;
            G->config_of(&s, &now);
            assert_int_equal(now.value[OPT_DECK], 7);
            char text[RP_STATE_TEXT];
            assert_true(G->state_to_text(&s, text, sizeof text) > 0);
            wa_state back;
            assert_int_equal(G->state_from_text(&back, text, &err), RP_OK);
            assert_memory_equal(&back, &s, sizeof s);
            rp_action legal[RP_MAX_LEGAL];
            const int n = G->legal_actions(&s, legal);
            G->apply(&s, legal[rp_rng_below(&rng, (uint32_t)n)]);
        }
    }
    rp_config cfg;
    rp_config_default(G, &cfg);
    rp_error err;
    assert_true(rp_config_set(G, &cfg, "deck=5", &err) < 0);
    assert_int_equal(cfg.value[OPT_DECK], WA_CARDS);
}

/* ---- the fast paths against plain references --------------------------------------------
 * rules.c deals a run of the deck in one loop, copies the shuffled deck in reversed words and
 * lists the legal actions without testing each card when nothing is targeted: what a random
 * game cannot tell from the plain way, these references check on many deals and states. */

/* WA-6, WA-10, one card at a time: the top card, the discard pile (in card order) shuffled
 * into a new deck first when the deck is empty and a card is needed; -1 when both are empty. */
static int ref_draw(wa_state *s)
{
    if (s->ndeck == 0) {
        if (s->discard == 0)
            return -1;
        for (int c = 0; c < WA_CARDS; c++)
            if (s->discard & BIT(c))
                s->deck[s->ndeck++] = (uint8_t)c;
        rp_rng_shuffle_u8(&s->rng, s->deck, s->ndeck);
        s->discard = 0;
    }
    const int card = s->deck[--s->ndeck];
    s->deck[s->ndeck] = 0;
    return card;
}

/* WA-1 as the rulebook says it: for each player, walls then army, flip the top card; a face
 * card is a shield and the flip is repeated, a number card is discarded and that many cards
 * are dealt one by one. The deal of deck=ncards from the seed, as wa_init shuffles it. */
static void ref_setup(wa_state *s, uint64_t seed, int ncards)
{
    memset(s, 0, sizeof *s);
    rp_rng_seed(&s->rng, seed, 0x5741u);
    uint8_t order[WA_CARDS];
    for (int i = 0; i < ncards; i++)
        order[i] = (uint8_t)i;
    rp_rng_shuffle_u8(&s->rng, order, ncards);
    for (int i = 0; i < ncards; i++)
        s->deck[i] = order[ncards - 1 - i]; /* order[0] is the top */
    s->ndeck = (uint8_t)ncards;
    for (int pl = 0; pl < 2; pl++) {
        wa_player *p = &s->p[pl];
        for (int walls = 1; walls >= 0; walls--) {
            int card;
            while ((card = ref_draw(s)) >= 0 && wa_is_face(card))
                p->shields[p->nshields++] = (uint8_t)card;
            if (card < 0)
                continue;
            s->discard |= BIT(card);
            for (int i = 0; i < wa_card_value(card); i++) {
                const int dealt = ref_draw(s);
                if (dealt < 0)
                    break;
                if (walls)
                    p->walls[p->nwalls++] = (uint8_t)dealt;
                else
                    p->army[p->narmy++] = (uint8_t)dealt;
            }
        }
    }
}

/* WA-3, WA-9, WA-13, one card at a time: attacks on shields while any, else on walls, never on
 * a targeted card, then every stack; the defender leaves, or counters with army cards left. */
static int ref_legal(const wa_state *s, rp_action out[RP_MAX_LEGAL])
{
    int n = 0;
    const wa_player *d = &s->p[s->attacker ^ 1];
    if (s->phase == WA_ATTACK) {
        for (int i = 0; i < d->nshields; i++)
            if (!(s->targeted & BIT(d->shields[i])))
                out[n++] = WA_ACT_SHIELD + (rp_action)i;
        for (int i = 0; d->nshields == 0 && i < d->nwalls; i++)
            if (!(s->targeted & BIT(d->walls[i])))
                out[n++] = WA_ACT_WALL + (rp_action)i;
        for (int k = 0; k < s->nstacks; k++)
            out[n++] = WA_ACT_STACK + (rp_action)k;
    } else if (s->phase == WA_DEFEND) {
        out[n++] = WA_ACT_LEAVE;
        if (d->narmy > 0)
            out[n++] = WA_ACT_COUNTER;
    }
    return n;
}

static void test_fast_paths_match_plain_references(void **unused)
{
    (void)unused;
    int games = rp_test_games(RP_TEST_SOAK_GAMES) * 4;
    for (int g = 0; g < games; g++) {
        /* Every deck size from the smallest (reshuffles in the middle of a deal) to the full. */
        const int ncards = WA_MIN_DECK + g % (WA_CARDS - WA_MIN_DECK + 1);
        char opts[64];
        snprintf(opts, sizeof opts, "seed=%d deck=%d turn-cap=30", g + 1, ncards);
        wa_state s, ref;
        rp_test_init(G, &s, opts);
        ref_setup(&ref, (uint64_t)g + 1, ncards);
        for (int pl = 0; pl < 2; pl++)
            assert_memory_equal(&ref.p[pl], &s.p[pl], sizeof ref.p[pl]);
        assert_memory_equal(ref.deck, s.deck, sizeof ref.deck);
        assert_int_equal(ref.ndeck, s.ndeck);
        assert_int_equal(ref.discard, s.discard);
        const bool coin = ref.p[0].nwalls == ref.p[1].nwalls &&
                          ref.p[0].nshields == ref.p[1].nshields &&
                          ref.p[0].narmy == ref.p[1].narmy;
        if (!coin) /* WA-2's coin is the one draw after the deal */
            assert_memory_equal(&ref.rng, &s.rng, sizeof ref.rng);
        rp_rng rng;
        rp_rng_seed(&rng, (uint64_t)g, 12);
        while (G->current_player(&s) != RP_TERMINAL) {
            /* The seat to act: the attacker attacks, the defender answers (WA-3, WA-4). */
            assert_int_equal(G->current_player(&s),
                             s.phase == WA_ATTACK ? s.attacker : s.attacker ^ 1);
            rp_action fast[RP_MAX_LEGAL], plain[RP_MAX_LEGAL];
            const int n = G->legal_actions(&s, fast);
            assert_int_equal(n, ref_legal(&s, plain));
            assert_memory_equal(fast, plain, (size_t)n * sizeof fast[0]);
            G->apply(&s, fast[rp_rng_below(&rng, (uint32_t)n)]);
        }
        rp_action none[RP_MAX_LEGAL];
        assert_int_equal(G->legal_actions(&s, none), 0);
    }
}

/* WA-6: a reshuffle reads the discard pile in ascending card order before the shuffle, so the
 * byte table of wa_cards_ascending must give what a plain walk over the set's bits gives, for
 * sets of every density and the edge ones (empty, full, the last nibble full: the end of the
 * deck; 44 to 51 cards: the tail's eight zeroes as a word or byte by byte), leaving the rest of
 * the deck zero and nothing past it written. */
static void test_cards_ascending(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 5, 0x57u);
    const int sets = rp_test_games(RP_TEST_SOAK_GAMES) * 4;
    for (int t = 0; t < sets; t++) {
        uint64_t set = 0;
        if (t == 1)
            set = WA_ALL_CARDS;
        else if (t == 2)
            set = UINT64_C(0xF) << 48;
        else if (t >= 3 && t <= 10) /* 51 down to 44 cards: the tail's zeroes near the end */
            set = WA_ALL_CARDS & ~((UINT64_C(1) << (t - 2)) - 1);
        else
            for (int c = 0; c < WA_CARDS; c++) /* density t % 9 / 8: empty to full */
                if ((int)rp_rng_below(&rng, 8) < t % 9)
                    set |= BIT(c);
        uint8_t plain[WA_CARDS] = {0};
        int nplain = 0;
        for (int c = 0; c < WA_CARDS; c++)
            if (set & BIT(c))
                plain[nplain++] = (uint8_t)c;
        struct {
            uint8_t deck[WA_CARDS];
            uint8_t guard[8];
        } out;
        memset(out.deck, 0, sizeof out.deck);
        memset(out.guard, 0xA5, sizeof out.guard);
        assert_int_equal(wa_cards_ascending(set, out.deck), nplain);
        assert_memory_equal(out.deck, plain, sizeof plain);
        for (size_t i = 0; i < sizeof out.guard; i++)
            assert_int_equal(out.guard[i], 0xA5);
    }
}

/* apply (no log) takes shortcuts the narrated play (wa_play with a log, what events_json
 * replays) does not: an attack whose first card wins at once never writes its stack. Both must
 * leave the same bytes after every action of many random games, with every deck size (short
 * decks reshuffle often) and turn caps short and long. */
static void test_apply_matches_the_narrated_play(void **unused)
{
    (void)unused;
    static wa_log log; /* large: not on the stack */
    const int games = rp_test_games(RP_TEST_SOAK_GAMES) * 2;
    for (int g = 0; g < games; g++) {
        const int ncards = WA_MIN_DECK + g % (WA_CARDS - WA_MIN_DECK + 1);
        char opts[64];
        snprintf(opts, sizeof opts, "seed=%d deck=%d turn-cap=%d", g + 1, ncards, g % 3 ? 200 : 8);
        wa_state s;
        rp_test_init(G, &s, opts);
        rp_rng rng;
        rp_rng_seed(&rng, (uint64_t)g, 13);
        while (G->current_player(&s) != RP_TERMINAL) {
            rp_action legal[RP_MAX_LEGAL];
            const int n = G->legal_actions(&s, legal);
            const rp_action a = legal[rp_rng_below(&rng, (uint32_t)n)];
            wa_state told = s;
            log.n = 0;
            wa_play(&told, a, &log);
            G->apply(&s, a);
            assert_memory_equal(&told, &s, sizeof s);
        }
    }
}

/* apply of `a` on a copy of s while a draw list records every draw, so that the reshuffle goes
 * through rp_rng_shuffle_u8 itself (not rp__rng_shuffle_u8's local loop); how many draws it
 * made. */
static size_t apply_listed(wa_state *s, rp_action a)
{
    uint32_t values[64];
    rp_draws record = {.record = values, .record_cap = 64};
    rp_draws *before = rp_rng_use_draws(&record);
    G->apply(s, a);
    rp_rng_use_draws(before);
    return record.used;
}

/* WA-6: a reshuffle shuffles the discard pile with rp_rng_shuffle_u8 inline (rp__rng_shuffle_u8:
 * the generator's state in a local), and with rp_rng_shuffle_u8 itself while a draw list is in
 * use. After every action of random games over every deck size the two give the
 * same bytes; where the action reshuffled, also from a generator state whose first draw is
 * redrawn (state 0: its output is 0, below every bound), the rare path. */
static void test_WA6_reshuffle_shuffles_as_rp_rng_shuffle(void **unused)
{
    (void)unused;
    int reshuffles = 0;
    const int games = rp_test_games(RP_TEST_SOAK_GAMES) / 2;
    for (int g = 0; g < games; g++) {
        const int ncards = WA_MIN_DECK + g % (WA_CARDS - WA_MIN_DECK + 1);
        char opts[64];
        snprintf(opts, sizeof opts, "seed=%d deck=%d", g + 7, ncards);
        wa_state s;
        rp_test_init(G, &s, opts);
        rp_rng rng;
        rp_rng_seed(&rng, (uint64_t)g, 17);
        while (G->current_player(&s) != RP_TERMINAL) {
            rp_action legal[RP_MAX_LEGAL];
            const int n = G->legal_actions(&s, legal);
            const rp_action a = legal[rp_rng_below(&rng, (uint32_t)n)];
            wa_state listed = s, redrawn = s;
            const size_t drew = apply_listed(&listed, a);
            if (drew > 1) { /* a reshuffle of two cards or more: the redraw too */
                reshuffles++;
                redrawn.rng.state = 0;
                wa_state plain = redrawn;
                apply_listed(&plain, a);
                G->apply(&redrawn, a);
                assert_memory_equal(&plain, &redrawn, sizeof plain);
            }
            G->apply(&s, a);
            assert_memory_equal(&listed, &s, sizeof s);
        }
    }
    assert_true(reshuffles > 0);
}

/* The deal zeroes the whole state in 16-byte stores (rules.c, zero_state) before it deals:
 * whatever the memory held, the same seed must give the same bytes (equal states are equal
 * bytes), for every deck size. */
static void test_deal_writes_every_byte(void **unused)
{
    (void)unused;
    for (int ncards = WA_MIN_DECK; ncards <= WA_CARDS; ncards++) {
        char opts[64];
        snprintf(opts, sizeof opts, "seed=%d deck=%d", ncards * 7, ncards);
        wa_state clean, dirty;
        memset(&clean, 0, sizeof clean);
        memset(&dirty, 0xA5, sizeof dirty);
        rp_test_init(G, &clean, opts);
        rp_test_init(G, &dirty, opts);
        assert_memory_equal(&clean, &dirty, sizeof clean);
    }
}

/* WA-P2: a wall, shield or stack removed closes up its list in order. wa_close_up moves
 * fixed-size windows (the array's end from a local copy) where it can: for both array sizes it
 * is used with (shields, and walls and stacks), every list length and every entry removed, it
 * must leave what the plain loop leaves, zeroes past the new end, and nothing outside the
 * array written. */
static void test_close_up(void **unused)
{
    (void)unused;
    static const int sizes[] = {WA_MAX_SHIELDS, WA_CARDS};
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        const int size = sizes[z];
        for (int last = 0; last < size; last++)
            for (int i = 0; i <= last; i++) {
                struct {
                    uint8_t before[8], list[WA_CARDS], after[8];
                } got;
                memset(&got, 0xA5, sizeof got);
                uint8_t want[WA_CARDS] = {0};
                for (int j = 0; j < size; j++)
                    got.list[j] = j <= last ? (uint8_t)(j + 1) : 0;
                for (int j = 0; j < last; j++)
                    want[j] = j < i ? (uint8_t)(j + 1) : (uint8_t)(j + 2);
                wa_close_up(got.list, size, i, last);
                assert_memory_equal(got.list, want, (size_t)size);
                for (size_t j = 0; j < sizeof got.before; j++)
                    assert_true(got.before[j] == 0xA5 && got.after[j] == 0xA5);
                for (int j = size; j < WA_CARDS; j++)
                    assert_int_equal(got.list[j], 0xA5);
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_WA1_setup_flips_shields_walls_and_armies),
        cmocka_unit_test(test_WA1_full_deck_shuffles_as_rp_rng_shuffle),
        cmocka_unit_test(test_WA2_first_player_fewer_shields_then_fewer_army),
        cmocka_unit_test(test_WA2_full_tie_is_a_coin),
        cmocka_unit_test(test_WAP1_attacker_chooses_before_the_flip),
        cmocka_unit_test(test_WAP1_attacker_choices_ignore_the_hidden_deck),
        cmocka_unit_test(test_WA3_shields_before_walls),
        cmocka_unit_test(test_WA3_higher_card_discards_target_and_card),
        cmocka_unit_test(test_WA3_equal_card_does_not_win),
        cmocka_unit_test(test_WA3_stacked_cards_add_up),
        cmocka_unit_test(test_WA3_attacked_wall_is_revealed),
        cmocka_unit_test(test_WA4_leave_keeps_the_stack),
        cmocka_unit_test(test_WA4_higher_counter_captures_the_stack_as_walls),
        cmocka_unit_test(test_WA4_counter_not_higher_discards_both),
        cmocka_unit_test(test_WA14_captured_card_can_be_attacked_this_turn),
        cmocka_unit_test(test_WA9_no_second_stack_on_one_target),
        cmocka_unit_test(test_WA13_defender_asked_after_last_card_with_leave_only),
        cmocka_unit_test(test_WA5_end_of_turn_discards_stacks_and_replenishes),
        cmocka_unit_test(test_WA11_replenish_face_card_is_a_shield_only),
        cmocka_unit_test(test_WA10_reshuffle_when_needed_includes_the_flipped_card),
        cmocka_unit_test(test_WA6_both_piles_empty_deal_fewer_cards),
        cmocka_unit_test(test_WA12_empty_army_turn_is_only_a_replenish),
        cmocka_unit_test(test_WA7_no_walls_loses_at_once_mid_turn),
        cmocka_unit_test(test_WA15_turn_cap_more_walls_win_shields_do_not_count),
        cmocka_unit_test(test_WA7_a_deal_that_leaves_red_no_walls_is_blues),
        cmocka_unit_test(test_WA7_turn_cap_equal_walls_draw),
        cmocka_unit_test(test_WAP3_turn_cap_option),
        cmocka_unit_test(test_WA8_views_hide_face_down_cards_from_everyone),
        cmocka_unit_test(test_WA8_render_hides_cards_and_colours_on_request),
        cmocka_unit_test(test_WAP2_wall_numbering),
        cmocka_unit_test(test_WAP4_shields_stay_face_up),
        cmocka_unit_test(test_card_notation),
        cmocka_unit_test(test_action_notation),
        cmocka_unit_test(test_state_notation_refuses_inconsistent_states),
        cmocka_unit_test(test_evaluate_prefers_more_walls),
        cmocka_unit_test(test_eval_features_public_and_opposite),
        cmocka_unit_test(test_events_attack_turns_up_a_wall_that_falls),
        cmocka_unit_test(test_events_flip_that_does_not_win_and_leave),
        cmocka_unit_test(test_events_defender_without_army_must_leave),
        cmocka_unit_test(test_events_stack_total_and_shields_falling),
        cmocka_unit_test(test_events_counter_captures_without_naming_the_new_walls),
        cmocka_unit_test(test_events_counter_that_fails),
        cmocka_unit_test(test_events_turn_end_replenish_and_next_turn),
        cmocka_unit_test(test_events_replenish_face_card_becomes_a_shield),
        cmocka_unit_test(test_events_reshuffle_short_deal_and_empty_turn),
        cmocka_unit_test(test_events_nothing_left_runs_to_the_cap),
        cmocka_unit_test(test_events_game_over_without_walls),
        cmocka_unit_test(test_game_over_with_one_wall_left),
        cmocka_unit_test(test_events_game_over_at_the_turn_cap),
        cmocka_unit_test(test_events_carry_their_parts_as_data),
        cmocka_unit_test(test_WAP6_seat_names),
        cmocka_unit_test(test_WA8_spectator_sees_the_public_table),
        cmocka_unit_test(test_actions_as_data),
        cmocka_unit_test(test_explain_illegal_in_the_games_terms),
        cmocka_unit_test(test_secret_names_match_the_referee_state),
        cmocka_unit_test(test_WA5_walls_turned_down_stay_seen),
        cmocka_unit_test(test_discard_pile_is_grouped_when_long),
        cmocka_unit_test(test_WA4_captured_cards_stay_seen),
        cmocka_unit_test(test_config_of_reports_the_turn_cap_in_effect),
        cmocka_unit_test(test_turn_number_counts_the_rulebooks_turns),
        cmocka_unit_test(test_state_ok_refuses_broken_states),
        cmocka_unit_test(test_state_notation_accepts_only_the_canonical_text),
        cmocka_unit_test(test_property_random_games),
        cmocka_unit_test(test_small_deck_deals_only_its_cards),
        cmocka_unit_test(test_fast_paths_match_plain_references),
        cmocka_unit_test(test_cards_ascending),
        cmocka_unit_test(test_deal_writes_every_byte),
        cmocka_unit_test(test_close_up),
        cmocka_unit_test(test_apply_matches_the_narrated_play),
        cmocka_unit_test(test_WA6_reshuffle_shuffles_as_rp_rng_shuffle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
