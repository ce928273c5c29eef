/* text.c — Danger at the Walls as text: card and seat names, counted cards in a sentence,
 * actions in notation and taken apart, the invariants every state keeps (state_ok), the
 * full-state notation and why a move is not legal. Formats: docs/games/danger-at-the-walls.md. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/legal.h"
#include "core/notation.h"
#include "core/text.h"
#include "games/danger-at-the-walls/internal.h"

/* Copies of each face among the 49 playing cards (rulebook "Card Distributions"). */
static const uint8_t TOTAL[DW_FACES] = {13, 7, 5, 1, 3, 1, 3, 1, 4, 3, 1, 1, 1, 1, 1, 1, 1, 1};

/* Card names: one word each, as views, events, the state notation and secret_names spell
 * them. */
const char *const dw_card_name[DW_FACES] = {
    "archer-1", "archer-2", "archer-3", "cannon-5", "cannon-6", "cannon-7",
    "cannon-8", "cannon-9", "flag",     "attack",   "general",  "noble",
    "engineer", "assassin", "king",     "wizard",   "builder",  "spy"};
/* The same cards as the move notation writes them ("discard cannon 6"). */
const char *const dw_face_words[DW_FACES] = {
    "archer 1", "archer 2", "archer 3", "cannon 5", "cannon 6", "cannon 7",
    "cannon 8", "cannon 9", "flag",     "attack",   "general",  "noble",
    "engineer", "assassin", "king",     "wizard",   "builder",  "spy"};
/* Seats in data (views, events, notation). */
const char *const dw_seat_word[2] = {"blue", "red"};
/* Seats in sentences and on the screen (the names every Ramparts two-player game uses). */
const char *const dw_seat_names[2] = {"Blue", "Red"};
/* Attack targets by name, as in the action table. */
const char *const dw_attack_target[2] = {"cannon", "archers"};

/* Counted cards for a sentence, copies as on the screen: "archer-1 x2 and archer-3". */
const char *dw_cards_text(char *buf, size_t size, const uint8_t *counts)
{
    rp_text t;
    rp__text_init(&t, buf, size);
    int faces = 0, done = 0;
    for (int f = 0; f < DW_FACES; f++)
        faces += counts[f] != 0;
    for (int f = 0; f < DW_FACES; f++) {
        if (!counts[f])
            continue;
        if (done++)
            rp__text_str(&t, done == faces ? " and " : ", ");
        rp__text_str(&t, dw_card_name[f]);
        if (counts[f] > 1)
            rp__text_put(&t, " x%d", counts[f]);
    }
    return buf;
}

/* ------------------------------------------------------------------------------------------ */
/* Action notation                                                                            */

/* The targets of the Spy and the Assassin as the move notation writes them. */
const char *const dw_spy_target[7] = {"archer 1", "archer 2", "archer 3", "cannon",
                                      "general",  "noble",    "engineer"};
const char *const dw_assassin_target[8] = {"archer 1", "archer 2", "archer 3", "cannon",
                                           "king",     "wizard",   "builder",  "spy"};

/* Text of an action; it depends only on the action id, so any state will do. */
int dw_action_to_text(const void *st, rp_action a, char *buf, size_t size)
{
    (void)st;
    if (a >= DW_NUM_ACTIONS || size == 0)
        return -1;
    int len;
    if (a < DW_ACT_CANNON) {
        const int r = (int)a % 343;
        const int c[3] = {r / 49, (r / 7) % 7, r % 7};
        char list[48]; /* up to 18 values joined by '+' */
        int k = 0;
        for (int v = 0; v < 3; v++)
            for (int i = 0; i < c[v]; i++)
                k += snprintf(list + k, sizeof list - (size_t)k, "%s%d", k ? "+" : "", v + 1);
        if (k == 0)
            return -1;
        len = snprintf(buf, size, "archers %s wall %d", list, (int)a / 343 + 1);
    } else if (a < DW_ACT_FLAG) {
        const int i = (int)(a - DW_ACT_CANNON);
        len = snprintf(buf, size, "cannon %d wall %d", 5 + i % 5, i / 5 + 1);
    } else if (a < DW_ACT_ATTACK) {
        len = snprintf(buf, size, "flag wall %d", (int)(a - DW_ACT_FLAG) + 1);
    } else if (a < DW_ACT_LEADER) {
        const int i = (int)(a - DW_ACT_ATTACK);
        len = snprintf(buf, size, "attack %s wall %d", i % 2 ? "archers" : "cannon", i / 2 + 1);
    } else if (a < DW_ACT_SPY) {
        const int i = (int)(a - DW_ACT_LEADER);
        len = snprintf(buf, size, "%s wall %d", dw_face_words[dw_leader_face[i % 6]], i / 6 + 1);
    } else if (a < DW_ACT_ASSASSIN) {
        const int i = (int)(a - DW_ACT_SPY);
        len = snprintf(buf, size, "spy %s wall %d", dw_spy_target[i % 7], i / 7 + 1);
    } else if (a < DW_ACT_DISCARD) {
        const int i = (int)(a - DW_ACT_ASSASSIN);
        len = snprintf(buf, size, "assassin %s wall %d", dw_assassin_target[i % 8], i / 8 + 1);
    } else if (a < DW_ACT_DRAW_PERSONAL) {
        len = snprintf(buf, size, "discard %s", dw_face_words[a - DW_ACT_DISCARD]);
    } else {
        len = snprintf(buf, size, "draw %s", a == DW_ACT_DRAW_PERSONAL ? "personal" : "main");
    }
    return (len < 0 || (size_t)len >= size) ? -1 : len;
}

#define MAX_TOKENS 8

/* Split lower-cased text into at most MAX_TOKENS words; returns the count or -1. */
static int tokenize(const char *text, char *copy, size_t size, char **tok)
{
    size_t len = strlen(text);
    if (len >= size)
        return -1;
    for (size_t i = 0; i <= len; i++)
        copy[i] = (char)tolower((unsigned char)text[i]);
    int n = 0;
    for (char *p = copy; *p;) {
        while (*p && isspace((unsigned char)*p))
            *p++ = '\0';
        if (!*p)
            break;
        if (n == MAX_TOKENS)
            return -1;
        tok[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
    }
    return n;
}

/* A small whole number written with one digit in [lo, hi], or -1. */
static int digit_in(const char *t, int lo, int hi)
{
    if (!t || t[0] < '0' || t[0] > '9' || t[1])
        return -1;
    const int v = t[0] - '0';
    return (v >= lo && v <= hi) ? v : -1;
}

/* "wall N" at tok[i], tok[i+1]; returns the wall 0..4 or -1. */
static int parse_wall(char **tok, int n, int i)
{
    if (i + 2 != n || strcmp(tok[i], "wall") != 0)
        return -1;
    const int w = digit_in(tok[i + 1], 1, DW_WALLS);
    return w < 0 ? -1 : w - 1;
}

/* A face written as its name ("archer 2", "cannon 6", "flag", "spy"); returns the face and
 * the number of words used, or -1. */
static int parse_face(char **tok, int n, int i, int *used)
{
    if (i >= n)
        return -1;
    if (strcmp(tok[i], "archer") == 0 || strcmp(tok[i], "cannon") == 0) {
        const bool archer = tok[i][0] == 'a';
        const int v = i + 1 < n ? digit_in(tok[i + 1], archer ? 1 : 5, archer ? 3 : 9) : -1;
        if (v < 0)
            return -1;
        *used = 2;
        return archer ? DW_A1 + v - 1 : DW_C5 + v - 5;
    }
    for (int f = DW_FLAG; f < DW_FACES; f++)
        if (strcmp(tok[i], dw_face_words[f]) == 0) {
            *used = 1;
            return f;
        }
    return -1;
}

/* "1+1+3": counts per Archer value, 1..6 Archers in all. */
static bool parse_archer_list(const char *t, int c[3])
{
    c[0] = c[1] = c[2] = 0;
    int total = 0;
    for (;;) {
        if (*t < '1' || *t > '3')
            return false;
        c[*t - '1']++;
        total++;
        t++;
        if (!*t)
            break;
        if (*t++ != '+')
            return false;
    }
    return total <= DW_HAND;
}

/* Index of a target word (one or two words) in `names`, with the words used; or -1. */
static int parse_target(char **tok, int n, int i, const char *const *names, int count, int *used)
{
    for (int k = 0; k < count; k++) {
        const char *sp = strchr(names[k], ' ');
        if (!sp) {
            if (i < n && strcmp(tok[i], names[k]) == 0) {
                *used = 1;
                return k;
            }
        } else if (i + 1 < n && strncmp(tok[i], names[k], (size_t)(sp - names[k])) == 0 &&
                   tok[i][sp - names[k]] == '\0' && strcmp(tok[i + 1], sp + 1) == 0) {
            *used = 2;
            return k;
        }
    }
    return -1;
}

#define PARSE_HELP                                                                                 \
    "expected e.g. 'archers 1+2 wall 3', 'cannon 7 wall 1', 'flag wall 2', 'attack cannon "        \
    "wall 4', 'king wall 5', 'spy archer 2 wall 1', 'assassin spy wall 3', 'discard attack', "     \
    "'draw personal' or 'draw main'"

/* The words of a move being read, and the text itself for the messages. */
typedef struct dw_words {
    char **tok;
    int n;
    const char *text;
} dw_words;

/* The move ends with "wall N" at word i: the action base + wall * per_wall + offset. */
static int read_wall_end(const dw_words *m, int i, int base, int per_wall, int offset,
                         rp_action *out, rp_error *err)
{
    const int w = parse_wall(m->tok, m->n, i);
    if (w < 0)
        return rp_fail(err, RP_EPARSE, "'%s': the move must end with 'wall N', N from 1 to 5",
                       m->text);
    *out = (rp_action)(base + w * per_wall + offset);
    return RP_OK;
}

/* "archers 1+1+3 wall 2" (four words). */
static int read_archers(const dw_words *m, rp_action *out, rp_error *err)
{
    int c[3];
    if (!parse_archer_list(m->tok[1], c))
        return rp_fail(err, RP_EPARSE,
                       "'%s': the Archers are values 1-3 joined by '+' "
                       "(at most 6), e.g. 'archers 1+1+3 wall 2'",
                       m->text);
    return read_wall_end(m, 2, DW_ACT_ARCHERS, 343, c[0] * 49 + c[1] * 7 + c[2], out, err);
}

/* "cannon 7 wall 2". */
static int read_cannon(const dw_words *m, rp_action *out, rp_error *err)
{
    const int v = m->n > 1 ? digit_in(m->tok[1], 5, 9) : -1;
    if (v < 0)
        return rp_fail(err, RP_EPARSE, "'%s': a Cannon has a value from 5 to 9", m->text);
    return read_wall_end(m, 2, DW_ACT_CANNON, 5, v - 5, out, err);
}

/* "attack cannon wall 4" or "attack archers wall 4". */
static int read_attack(const dw_words *m, rp_action *out, rp_error *err)
{
    const char *what = m->n > 1 ? m->tok[1] : "";
    const int t = strcmp(what, "cannon") == 0 ? 0 : strcmp(what, "archers") == 0 ? 1 : -1;
    if (t < 0)
        return rp_fail(err, RP_EPARSE, "'%s': attack 'cannon' or 'archers'", m->text);
    return read_wall_end(m, 2, DW_ACT_ATTACK, 2, t, out, err);
}

/* The leader a verb names ("general", "king"...) as its index in dw_leader_face, or -1. */
static int leader_of(const char *verb)
{
    for (int l = 0; l < 6; l++)
        if (strcmp(verb, dw_face_words[dw_leader_face[l]]) == 0)
            return l;
    return -1;
}

/* "spy archer 2 wall 1", "assassin spy wall 3": the target, then the wall. */
static int read_spy_or_assassin(const dw_words *m, bool spy, rp_action *out, rp_error *err)
{
    int used = 0;
    const int t =
        parse_target(m->tok, m->n, 1, spy ? dw_spy_target : dw_assassin_target, spy ? 7 : 8, &used);
    if (t < 0)
        return rp_fail(err, RP_EPARSE, "'%s': the %s targets %s", m->text, m->tok[0],
                       spy ? "archer 1-3, cannon, general, noble or engineer"
                           : "archer 1-3, cannon, king, wizard, builder or spy");
    return spy ? read_wall_end(m, 1 + used, DW_ACT_SPY, 7, t, out, err)
               : read_wall_end(m, 1 + used, DW_ACT_ASSASSIN, 8, t, out, err);
}

/* "discard attack", "discard cannon 6": one card. */
static int read_discard(const dw_words *m, rp_action *out, rp_error *err)
{
    int used = 0;
    const int f = parse_face(m->tok, m->n, 1, &used);
    if (f < 0 || 1 + used != m->n)
        return rp_fail(err, RP_EPARSE,
                       "'%s': discard names one card, e.g. 'discard "
                       "attack' or 'discard cannon 6'",
                       m->text);
    *out = (rp_action)(DW_ACT_DISCARD + f);
    return RP_OK;
}

/* "draw personal" or "draw main" (two words). */
static int read_draw(const dw_words *m, rp_action *out, rp_error *err)
{
    const char *deck = m->tok[1];
    if (strcmp(deck, "personal") != 0 && strcmp(deck, "main") != 0)
        return rp_fail(err, RP_EPARSE, "'%s': draw from 'personal' or 'main'", m->text);
    *out = deck[0] == 'p' ? DW_ACT_DRAW_PERSONAL : DW_ACT_DRAW_MAIN;
    return RP_OK;
}

/* Parse a play written as by dw_action_to_text (any case, any spacing): the first word says
 * which kind of play, its reader the rest. */
int dw_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
{
    (void)st;
    char copy[RP_ACTION_TEXT * 2] = {0};
    char *tok[MAX_TOKENS];
    const int n = tokenize(text, copy, sizeof copy, tok);
    if (n <= 0)
        return rp_fail(err, RP_EPARSE, "cannot read the move '%s': %s", text, PARSE_HELP);
    const dw_words m = {tok, n, text};
    const char *verb = tok[0];
    if ((strcmp(verb, "archers") == 0 || strcmp(verb, "archer") == 0) && n == 4)
        return read_archers(&m, out, err);
    if (strcmp(verb, "cannon") == 0)
        return read_cannon(&m, out, err);
    if (strcmp(verb, "flag") == 0)
        return read_wall_end(&m, 1, DW_ACT_FLAG, 1, 0, out, err);
    if (strcmp(verb, "attack") == 0)
        return read_attack(&m, out, err);
    const int l = leader_of(verb);
    if (l >= 0)
        return read_wall_end(&m, 1, DW_ACT_LEADER, 6, l, out, err);
    if (strcmp(verb, "spy") == 0 || strcmp(verb, "assassin") == 0)
        return read_spy_or_assassin(&m, verb[0] == 's', out, err);
    if (strcmp(verb, "discard") == 0)
        return read_discard(&m, out, err);
    if (strcmp(verb, "draw") == 0 && n == 2)
        return read_draw(&m, out, err);
    return rp_fail(err, RP_EPARSE, "cannot read the move '%s': %s", text, PARSE_HELP);
}

/* ------------------------------------------------------------------------------------------ */
/* Actions taken apart                                                                        */

/* Take an action id apart (the layout in the table at the top of this file). */
dw_move dw_decode(rp_action a)
{
    /* the ranges after the Archers and before the discards: first id, ids per wall, kind */
    static const struct {
        rp_action first;
        int per_wall, kind;
    } RANGE[] = {{DW_ACT_CANNON, 5, K_CANNON}, {DW_ACT_FLAG, 1, K_FLAG},
                 {DW_ACT_ATTACK, 2, K_ATTACK}, {DW_ACT_LEADER, 6, K_LEADER},
                 {DW_ACT_SPY, 7, K_SPY},       {DW_ACT_ASSASSIN, 8, K_ASSASSIN}};
    static const uint8_t CARD[] = {
        [K_FLAG] = DW_FLAG, [K_ATTACK] = DW_ATTACK, [K_SPY] = DW_SPY, [K_ASSASSIN] = DW_ASSASSIN};
    dw_move m;
    memset(&m, 0, sizeof m);
    m.wall = m.target = -1;
    if (a < DW_ACT_CANNON) {
        const int r = (int)a % 343;
        m.kind = K_ARCHERS;
        m.wall = (int)a / 343;
        m.cards[DW_A1] = (uint8_t)(r / 49);
        m.cards[DW_A2] = (uint8_t)(r / 7 % 7);
        m.cards[DW_A3] = (uint8_t)(r % 7);
    } else if (a < DW_ACT_DISCARD) {
        int k = 5;
        while (a < RANGE[k].first)
            k--;
        const int i = (int)(a - RANGE[k].first), t = i % RANGE[k].per_wall;
        m.kind = RANGE[k].kind;
        m.wall = i / RANGE[k].per_wall;
        m.cards[m.kind == K_CANNON   ? DW_C5 + t
                : m.kind == K_LEADER ? dw_leader_face[t]
                                     : CARD[m.kind]] = 1;
        m.target = m.kind == K_ATTACK || m.kind == K_SPY || m.kind == K_ASSASSIN ? t : -1;
    } else if (a < DW_ACT_DRAW_PERSONAL) {
        m.kind = K_DISCARD;
        m.cards[a - DW_ACT_DISCARD] = 1;
    } else {
        m.kind = K_DRAW;
        m.target = a == DW_ACT_DRAW_MAIN;
    }
    return m;
}

/* The face of the card a Spy or Assassin play aims at in s; for a Cannon the top of the stack,
 * or -1 when there is none. */
int dw_target_face(const dw_state *s, const dw_move *m)
{
    const int seat = m->kind == K_SPY ? DW_BLUE : DW_RED;
    const dw_side side = dw_side_at(s, m->wall, seat), *sd = &side;
    if (m->target < 3)
        return DW_A1 + m->target;
    if (m->target == 3)
        return sd->ncannon ? sd->cannon[sd->ncannon - 1] : -1;
    if (m->target == 7)
        return DW_SPY;
    return (m->kind == K_SPY ? DW_GENERAL : DW_KING) + m->target - 4;
}

/* ------------------------------------------------------------------------------------------ */
/* Invariants                                                                                 */

/* The leaders each seat plays at walls (the Assassin and the Spy never stay on its side). */
static const uint8_t WALL_LEADERS[2] = {LB(DW_GENERAL) | LB(DW_NOBLE) | LB(DW_ENGINEER),
                                        LB(DW_KING) | LB(DW_WIZARD) | LB(DW_BUILDER)};
/* Faces a seat's hand or removed pile may hold: all but the other side's leaders. */
static const uint8_t HAND_FACES[2][DW_FACES] = {
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}};

/* A card name for any byte: the writer may be asked to print a broken state (the debug check
 * does, to show it), so it never indexes out of bounds. */
static const char *card_name(int f)
{
    return f >= 0 && f < DW_FACES ? dw_card_name[f] : "?";
}

/* names[v], or "?" when v is out of range (see card_name). */
static const char *name_of(const char *const *names, int n, int v)
{
    return v >= 0 && v < n ? names[v] : "?";
}

/* Format a reason into why and return it (for the checks below). */
static const char *say(char *why, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static const char *say(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return why;
}

/* A deck: n cards of real faces, and zeros after them (equal states are equal bytes). */
static bool list_ok(const uint8_t *faces, int n, int capacity)
{
    for (int i = 0; i < capacity; i++)
        if (i < n ? faces[i] >= DW_FACES : faces[i] != 0)
            return false;
    return true;
}

/* One side of a wall: Archer counts possible, a Cannon stack of Cannons with zeros above it,
 * and only that seat's wall leaders. */
static const char *check_side(const dw_state *s, int w, int seat, char *why, size_t size)
{
    const dw_side side = dw_side_at(s, w, seat), *sd = &side;
    for (int v = 0; v < 3; v++)
        if (sd->archers[v] > TOTAL[DW_A1 + v])
            return say(why, size, "wall %d holds %d %s for %s", w + 1, sd->archers[v],
                       dw_card_name[DW_A1 + v], dw_seat_names[seat]);
    if (sd->ncannon > DW_STACK)
        return say(why, size, "%s's Cannon stack at wall %d is %d high", dw_seat_names[seat], w + 1,
                   sd->ncannon);
    for (int i = 0; i < (int)sizeof sd->cannon; i++) {
        const bool in_stack = i < sd->ncannon;
        if (in_stack ? sd->cannon[i] < DW_C5 || sd->cannon[i] > DW_C9 : sd->cannon[i] != 0)
            return say(why, size,
                       "%s's Cannon stack at wall %d holds something else than "
                       "Cannons",
                       dw_seat_names[seat], w + 1);
    }
    if (sd->leaders & ~WALL_LEADERS[seat])
        return say(why, size, "%s's side of wall %d holds a leader %s does not play at walls",
                   dw_seat_names[seat], w + 1, dw_seat_names[seat]);
    const dw_camp *c = &s->camp[seat];
    const int top = sd->ncannon ? dw_cannon_value(sd->cannon[sd->ncannon - 1]) : 0;
    if (c->power[w] != dw_archer_power(sd->archers) || c->top[w] != top)
        return say(why, size,
                   "%s's Archers and top Cannon at wall %d are kept as %d and %d, the cards "
                   "there make %d and %d",
                   dw_seat_names[seat], w + 1, c->power[w], c->top[w], dw_archer_power(sd->archers),
                   top);
    return NULL;
}

/* Where the Spy is: nowhere (all its fields zero), or on a Blue card that is there (DW-8). */
static const char *check_spy(const dw_state *s)
{
    if (!s->spy_wall)
        return s->spy_on || s->spy_depth ? "the Spy is not in play, yet it has a target" : NULL;
    if (s->spy_wall > DW_WALLS)
        return "the Spy is at a wall that does not exist";
    const dw_side blue = dw_side_at(s, s->spy_wall - 1, DW_BLUE), *b = &blue;
    if (s->spy_on == DW_SPY_ON_CANNON)
        return s->spy_depth < b->ncannon ? NULL
                                         : "the Spy's Cannon is not in that wall's Blue stack";
    if (s->spy_depth)
        return "the Spy covers no Cannon, yet it has a stack position";
    if (s->spy_on <= DW_A3)
        return NULL; /* the spied Archer is kept apart from the counted ones */
    if (s->spy_on < DW_GENERAL || s->spy_on > DW_ENGINEER)
        return "the Spy covers an Archer, a Cannon, the General, the Noble or the Engineer";
    return b->leaders & LB(s->spy_on) ? NULL : "the Spy covers a leader that is not on that wall";
}

/* Every field in its range, so the checks after this one may index with any of them. */
static const char *check_ranges(const dw_state *s, char *why, size_t size)
{
    static const uint8_t zero[sizeof s->pad_];
    if (!(s->rng.inc & 1))
        return "the generator's increment is even";
    if (s->to_move > 1 || s->phase > 1 || s->over > 1 || s->last_turn > DW_LAST_EMPTY_HAND)
        return "the seat to act, the phase, the last-turn reason or the game-over flag is out "
               "of range";
    if (s->turn < 1 || s->turn > DW_MAX_TURNS)
        return say(why, size, "turn %d is not in 1..%d", s->turn, DW_MAX_TURNS);
    if (s->actor != (s->over ? RP_TERMINAL : s->to_move))
        return "the player to act is not the seat to act, or not nobody once the game is over";
    if (memcmp(s->pad_, zero, sizeof zero) != 0)
        return "the padding bytes are not zero";
    for (int p = 0; p < 2; p++) {
        /* the rows' bytes past the fifth wall (the legal plays read whole rows) */
        const dw_camp *c = &s->camp[p];
        const uint8_t *const rows[7] = {c->archers[0], c->archers[1], c->archers[2], c->ncannon,
                                        c->leaders,    c->power,      c->top};
        for (int i = 0; i < 7; i++)
            for (int w = DW_WALLS; w < 8; w++)
                if (rows[i][w])
                    return "a byte past the fifth wall is not zero";
    }
    for (int p = 0; p < 2; p++) {
        int n = 0;
        for (int f = 0; f < DW_FACES; f++) {
            if (s->hand[p][f] > TOTAL[f] || s->removed[p][f] > TOTAL[f])
                return say(why, size, "%s holds or lost %s more often than the game has it",
                           dw_seat_names[p], dw_card_name[f]);
            n += s->hand[p][f];
        }
        if (n != s->hand_n[p] || n > DW_HAND)
            return say(why, size, "%s's hand holds %d cards, counted %d (6 at most)",
                       dw_seat_names[p], n, s->hand_n[p]);
        if (s->personal_n[p] > DW_PERSONAL ||
            !list_ok(s->personal[p], s->personal_n[p], DW_PERSONAL))
            return say(why, size, "%s's personal deck is malformed", dw_seat_names[p]);
    }
    if (s->main_n > DW_MAIN || !list_ok(s->main, s->main_n, DW_MAIN))
        return "the main deck is malformed";
    int flags = 0;
    for (int w = 0; w < DW_WALLS; w++) {
        for (int seat = 0; seat < 2; seat++) {
            const char *bad = check_side(s, w, seat, why, size);
            if (bad)
                return bad;
        }
        if (s->control[w] > 1 || s->flag[w] > 2)
            return say(why, size, "wall %d has no valid controller or Flag", w + 1);
        flags += s->flag[w] != 0;
    }
    if (flags != s->flags_on_board)
        return say(why, size, "%d Flags are on walls, counted %d", flags, s->flags_on_board);
    return check_spy(s);
}

/* All 49 cards, each where it can be: the main deck holds main-deck cards, a personal deck
 * its own cards, and a card gone from a personal deck is in its owner's hand or play. */
static const char *check_cards(const dw_state *s, char *why, size_t size)
{
    uint8_t played[2][DW_FACES], mainc[DW_FACES] = {0}, pers[2][DW_FACES] = {{0}};
    dw_played_by(s, DW_BLUE, played[DW_BLUE]);
    dw_played_by(s, DW_RED, played[DW_RED]);
    for (int i = 0; i < s->main_n; i++)
        mainc[s->main[i]]++;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < s->personal_n[p]; i++)
            pers[p][s->personal[p][i]]++;
    for (int f = 0; f < DW_FACES; f++) {
        int sum = mainc[f];
        for (int p = 0; p < 2; p++)
            sum += s->hand[p][f] + played[p][f] + pers[p][f];
        if (sum != TOTAL[f])
            return say(why, size, "there are %d cards %s, the game has %d", sum, dw_card_name[f],
                       TOTAL[f]);
        if (mainc[f] > dw_main0[f])
            return say(why, size, "the main deck holds %d %s, it started with %d", mainc[f],
                       dw_card_name[f], dw_main0[f]);
        for (int p = 0; p < 2; p++) {
            if (s->hand[p][f] && !HAND_FACES[p][f])
                return say(why, size, "%s holds %s, a card of the other side", dw_seat_names[p],
                           dw_card_name[f]);
            if (s->removed[p][f] && !HAND_FACES[p][f])
                return say(why, size, "%s's removed pile holds %s, a card of the other side",
                           dw_seat_names[p], dw_card_name[f]);
            if (pers[p][f] > dw_personal0[p][f])
                return say(why, size, "%s's personal deck cannot hold %s %d times",
                           dw_seat_names[p], dw_card_name[f], pers[p][f]);
            if (s->hand[p][f] + played[p][f] < dw_personal0[p][f] - pers[p][f])
                return say(why, size,
                           "%s's %s left the personal deck but is neither in %s's "
                           "hand nor played by %s",
                           dw_seat_names[p], dw_card_name[f], dw_seat_names[p], dw_seat_names[p]);
        }
    }
    return NULL;
}

/* DW-10: an unflagged wall belongs to the stronger side (on a tie, to either). */
static const char *check_control(const dw_state *s, char *why, size_t size)
{
    for (int w = 0; w < DW_WALLS; w++) {
        const int b = dw_strength(s, w, DW_BLUE), r = dw_strength(s, w, DW_RED);
        if (!s->flag[w] && b != r && s->control[w] != (b > r ? DW_BLUE : DW_RED))
            return say(why, size,
                       "wall %d is unflagged and %s is stronger (%d to %d), so %s "
                       "controls it (DW-10)",
                       w + 1, dw_seat_names[b < r], b > r ? b : r, b > r ? r : b,
                       dw_seat_names[b < r]);
    }
    return NULL;
}

/* The turn: Blue plays the odd turns, each turn so far played a card, the phase can be played,
 * and the end of DW-12 stands where it must. */
static const char *check_turn(const dw_state *s, char *why, size_t size)
{
    const int p = s->to_move, q = p ^ 1;
    if (p != ((s->turn - 1) & 1))
        return say(why, size, "turn %d is %s's (Blue plays the odd turns)", s->turn,
                   dw_seat_names[(s->turn - 1) & 1]);
    uint8_t played[2][DW_FACES];
    dw_played_by(s, DW_BLUE, played[DW_BLUE]);
    dw_played_by(s, DW_RED, played[DW_RED]);
    int out = 0;
    for (int f = 0; f < DW_FACES; f++)
        out += played[DW_BLUE][f] + played[DW_RED][f];
    const int plays = s->turn - 1 + (s->phase == DW_PHASE_REFILL);
    if (out < plays)
        return say(why, size, "%d plays were made by turn %d, but only %d cards were played", plays,
                   s->turn, out);
    if (s->last_turn == DW_LAST_FLAGS && s->flags_on_board < 3)
        return "the last turn is due to the third Flag, but fewer are on the board";
    if (s->last_turn == DW_LAST_EMPTY_HAND && (s->hand_n[q] || s->personal_n[q] || s->main_n))
        return "the last turn is due to an empty hand, but the other player still has cards "
               "to hold or draw";
    if (s->over)
        return s->last_turn && s->phase == DW_PHASE_PLAY
                   ? NULL
                   : "a finished game has had its last turn and is not refilling";
    if (s->phase == DW_PHASE_PLAY && s->hand_n[p] == 0)
        return "the player to play has no card in hand";
    if (s->phase == DW_PHASE_REFILL &&
        (s->hand_n[p] >= DW_HAND || (!s->personal_n[p] && !s->main_n)))
        return "a refill needs fewer than 6 cards in hand and a card in a deck";
    if (!s->last_turn && s->hand_n[q] == 0)
        return "the opponent's hand is empty, so this must be the last turn (DW-12)";
    if (!s->last_turn && s->phase == DW_PHASE_PLAY && s->flags_on_board >= 3)
        return "three Flags are on the board, so this must be the last turn (DW-12)";
    return NULL;
}

/* Every invariant of a state reached by play, first the ranges (so the rest may index). */
int dw_state_ok(const void *st, rp_error *err)
{
    const dw_state *s = st;
    char why[RP_ERROR_TEXT];
    const char *bad = check_ranges(s, why, sizeof why);
    if (!bad)
        bad = check_cards(s, why, sizeof why);
    if (!bad)
        bad = check_control(s, why, sizeof why);
    if (!bad)
        bad = check_turn(s, why, sizeof why);
    return bad ? rp_fail(err, RP_EINVAL, "%s", bad) : RP_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Full-state notation (the format: docs/games/danger-at-the-walls.md)                        */

const char *const dw_phase_name[2] = {"play", "refill"};
static const char *const LAST_NAME[3] = {"no", "flags", "empty"};
static const char *const FLAG_NAME[3] = {"none", "blue", "red"};
static const char *const WALL_KEY[DW_WALLS] = {"wall1", "wall2", "wall3", "wall4", "wall5"};
static const char *const HAND_KEY[2] = {"blue-hand", "red-hand"};
static const char *const DECK_KEY[2] = {"blue-deck", "red-deck"};
static const char *const REMOVED_KEY[2] = {"blue-removed", "red-removed"};

/* One item of a ',' list. */
static void put_item(rp_text *t, int *n, const char *name)
{
    rp__put_sep(t, n, ',');
    rp__text_str(t, name);
}

/* Counted cards by name in face order, '-' for none (hands, removed piles). */
static void put_counts(rp_text *t, const uint8_t *counts)
{
    int n = 0;
    for (int f = 0; f < DW_FACES; f++)
        for (int i = 0; i < counts[f] && i < 64; i++)
            put_item(t, &n, dw_card_name[f]);
    rp__put_list_end(t, n);
}

/* Cards in their order (decks bottom to top), '-' for none. */
static void put_faces(rp_text *t, const uint8_t *faces, int n, int capacity)
{
    int k = 0;
    for (int i = 0; i < n && i < capacity; i++)
        put_item(t, &k, card_name(faces[i]));
    rp__put_list_end(t, k);
}

/* One side of a wall: Archers by value (the spied one included), the Cannon stack bottom to
 * top, then leaders. */
static void put_side(rp_text *t, const dw_state *s, int w, int seat)
{
    const dw_side side = dw_side_at(s, w, seat), *sd = &side;
    int n = 0;
    for (int v = 0; v < 3; v++) {
        const int spied = seat == DW_BLUE && s->spy_wall == w + 1 && s->spy_on == DW_A1 + v;
        for (int i = 0; i < sd->archers[v] + spied && i < 64; i++)
            put_item(t, &n, dw_card_name[DW_A1 + v]);
    }
    for (int i = 0; i < sd->ncannon && i < (int)sizeof sd->cannon; i++)
        put_item(t, &n, card_name(sd->cannon[i]));
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        if (sd->leaders & LB(f))
            put_item(t, &n, dw_card_name[f]);
    rp__put_list_end(t, n);
}

/* " key=word" with word names[v]; " key=w1,w2,..." for the five walls. */
static void put_word(rp_text *t, const char *key, const char *const *names, int n, int v)
{
    rp__put_key(t, key);
    rp__text_str(t, name_of(names, n, v));
}

static void put_per_wall(rp_text *t, const char *key, const char *const *names, int n,
                         const uint8_t *values)
{
    rp__put_key(t, key);
    for (int w = 0, k = 0; w < DW_WALLS; w++)
        put_item(t, &k, name_of(names, n, values[w]));
}

/* The referee's one-line notation; exact inverse of dw_state_from_text. */
int dw_state_to_text(const void *st, char *buf, size_t size)
{
    const dw_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, DW_NOTATION_TAG);
    rp__put_key(&t, "turn");
    rp__put_uint(&t, s->turn);
    put_word(&t, "to", dw_seat_word, 2, s->to_move);
    put_word(&t, "phase", dw_phase_name, 2, s->phase);
    put_word(&t, "last", LAST_NAME, 3, s->last_turn);
    rp__put_key(&t, "over");
    rp__put_uint(&t, s->over);
    put_per_wall(&t, "control", dw_seat_word, 2, s->control);
    put_per_wall(&t, "flags", FLAG_NAME, 3, s->flag);
    for (int w = 0; w < DW_WALLS; w++) {
        rp__put_key(&t, WALL_KEY[w]);
        put_side(&t, s, w, DW_BLUE);
        rp__text_ch(&t, '/');
        put_side(&t, s, w, DW_RED);
    }
    /* the Spy: '-', or <wall>/<the card it covers>, a Cannon as cannon@<stack position> */
    rp__put_key(&t, "spy");
    if (s->spy_wall) {
        rp__put_uint(&t, s->spy_wall);
        rp__text_str(&t, s->spy_on == DW_SPY_ON_CANNON ? "/cannon@" : "/");
        if (s->spy_on == DW_SPY_ON_CANNON)
            rp__put_uint(&t, s->spy_depth);
        else
            rp__text_str(&t, card_name(s->spy_on));
    } else {
        rp__text_ch(&t, '-');
    }
    for (int p = 0; p < 2; p++) {
        rp__put_key(&t, HAND_KEY[p]);
        put_counts(&t, s->hand[p]);
    }
    for (int p = 0; p < 2; p++) {
        rp__put_key(&t, DECK_KEY[p]);
        put_faces(&t, s->personal[p], s->personal_n[p], DW_PERSONAL);
    }
    rp__put_key(&t, "main");
    put_faces(&t, s->main, s->main_n, DW_MAIN);
    for (int p = 0; p < 2; p++) {
        rp__put_key(&t, REMOVED_KEY[p]);
        put_counts(&t, s->removed[p]);
    }
    rp__put_rng(&t, &s->rng);
    return rp__text_finish(&t);
}

/* A card by name, refusing anything else with the list of names. */
static int read_card(rp_reader *r, const char *what, rp_span item, int *face)
{
    *face = rp__span_name(item, dw_card_name, DW_FACES);
    if (*face >= 0)
        return RP_OK;
    return rp__read_fail(r, what,
                         "'%.*s' is not a card (archer-1..3, cannon-5..9, flag, "
                         "attack, general, noble, engineer, assassin, king, wizard, builder, "
                         "spy)",
                         (int)(item.len > 20 ? 20 : item.len), item.p);
}

/* The field `key`: a list of at most max cards in its order (a deck, bottom to top). */
static int read_faces(rp_reader *r, const char *key, uint8_t *faces, int max, uint8_t *n)
{
    rp_span v, item;
    rp_list l;
    int k = 0, f, rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    for (rp__list_begin(&l, v, ','); rp__list_next(&l, &item); k++) {
        if ((rc = read_card(r, key, item, &f)) < 0)
            return rc;
        if (k == max)
            return rp__read_fail(r, key, "more than %d cards", max);
        faces[k] = (uint8_t)f;
    }
    *n = (uint8_t)k;
    return RP_OK;
}

/* The field `key`: a list of at most max cards, counted per face (a hand, a removed pile). */
static int read_counts(rp_reader *r, const char *key, uint8_t *counts, int max, uint8_t *n)
{
    uint8_t faces[49];
    const int rc = read_faces(r, key, faces, max, n);
    for (int i = 0; rc == RP_OK && i < *n; i++)
        counts[faces[i]]++;
    return rc;
}

/* The field `key`: one word of names[0..n). */
static int read_word(rp_reader *r, const char *key, const char *const *names, int n, uint8_t *out)
{
    rp_span v;
    int x, rc = rp__read_field(r, key, &v);
    if (rc == RP_OK && (rc = rp__span_choice(r, key, v, names, n, &x)) == RP_OK)
        *out = (uint8_t)x;
    return rc;
}

/* The field `key`: a whole number in [min, max]. */
static int read_number(rp_reader *r, const char *key, int min, int max, uint8_t *out)
{
    rp_span v;
    uint64_t x;
    int rc = rp__read_field(r, key, &v);
    if (rc == RP_OK && (rc = rp__span_uint(r, key, v, (uint64_t)min, (uint64_t)max, &x)) == RP_OK)
        *out = (uint8_t)x;
    return rc;
}

/* The field `key`: five words of names[0..n), one per wall. */
static int read_per_wall(rp_reader *r, const char *key, const char *const *names, int n,
                         uint8_t *out)
{
    rp_span v, item;
    rp_list l;
    int w = 0, x, rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    for (rp__list_begin(&l, v, ','); rp__list_next(&l, &item); w++) {
        if (w == DW_WALLS)
            return rp__read_fail(r, key, "one word per wall, five in all");
        if ((rc = rp__span_choice(r, key, item, names, n, &x)) < 0)
            return rc;
        out[w] = (uint8_t)x;
    }
    return w == DW_WALLS ? RP_OK : rp__read_fail(r, key, "one word per wall, five in all");
}

/* turn, to, phase, last, over, control, flags. */
static int read_header(rp_reader *r, dw_state *t)
{
    int rc;
    if ((rc = read_number(r, "turn", 1, DW_MAX_TURNS, &t->turn)) < 0 ||
        (rc = read_word(r, "to", dw_seat_word, 2, &t->to_move)) < 0 ||
        (rc = read_word(r, "phase", dw_phase_name, 2, &t->phase)) < 0 ||
        (rc = read_word(r, "last", LAST_NAME, 3, &t->last_turn)) < 0 ||
        (rc = read_number(r, "over", 0, 1, &t->over)) < 0 ||
        (rc = read_per_wall(r, "control", dw_seat_word, 2, t->control)) < 0 ||
        (rc = read_per_wall(r, "flags", FLAG_NAME, 3, t->flag)) < 0)
        return rc;
    for (int w = 0; w < DW_WALLS; w++)
        t->flags_on_board = (uint8_t)(t->flags_on_board + (t->flag[w] != 0));
    dw_set_actor(t);
    return RP_OK;
}

/* One side of a wall: Archers (counted into archers[], the spied one included), Cannons onto
 * the stack in order, leaders. Which seat's leaders may be there is state_ok's to check. */
static int read_side(rp_reader *r, const char *what, rp_span v, dw_side *sd, uint8_t *archers)
{
    rp_list l;
    rp_span item;
    int f, rc;
    rp__list_begin(&l, v, ',');
    while (rp__list_next(&l, &item)) {
        if ((rc = read_card(r, what, item, &f)) < 0)
            return rc;
        if (f <= DW_A3) {
            if (archers[f] == TOTAL[f])
                return rp__read_fail(r, what, "more %s than the game has", dw_card_name[f]);
            archers[f]++;
        } else if (f <= DW_C9) {
            if (sd->ncannon == DW_STACK)
                return rp__read_fail(r, what, "more Cannons than a stack can hold");
            sd->cannon[sd->ncannon++] = (uint8_t)f;
        } else if (f >= DW_GENERAL && f != DW_ASSASSIN && f != DW_SPY) {
            if (sd->leaders & LB(f))
                return rp__read_fail(r, what, "%s twice", dw_card_name[f]);
            sd->leaders |= (uint8_t)LB(f);
        } else {
            return rp__read_fail(r, what,
                                 "%s does not stay on a side of a wall (Flags are in "
                                 "flags=, the Spy in spy=)",
                                 dw_card_name[f]);
        }
    }
    return RP_OK;
}

/* The Spy field; a spied Archer leaves the counted ones of blue_archers. */
static int read_spy(rp_reader *r, dw_state *t, uint8_t blue_archers[DW_WALLS][3])
{
    rp_span v, wall, target, word, index;
    int rc = rp__read_field(r, "spy", &v);
    if (rc < 0 || rp__span_is(v, "-"))
        return rc;
    uint64_t w, depth;
    if (!rp__span_split(v, '/', &wall, &target))
        return rp__read_fail(r, "spy", "write '-' or <wall>/<the card it covers>");
    if ((rc = rp__span_uint(r, "spy", wall, 1, DW_WALLS, &w)) < 0)
        return rc;
    t->spy_wall = (uint8_t)w;
    if (rp__span_split(target, '@', &word, &index) && rp__span_is(word, "cannon")) {
        if ((rc = rp__span_uint(r, "spy", index, 0, 7, &depth)) < 0)
            return rc;
        t->spy_on = DW_SPY_ON_CANNON;
        t->spy_depth = (uint8_t)depth;
        return RP_OK;
    }
    int f;
    if ((rc = read_card(r, "spy", target, &f)) < 0)
        return rc;
    if (f > DW_A3 && (f < DW_GENERAL || f > DW_ENGINEER))
        return rp__read_fail(r, "spy",
                             "the Spy covers an Archer, cannon@<stack position>, "
                             "general, noble or engineer");
    if (f <= DW_A3) {
        if (!blue_archers[w - 1][f])
            return rp__read_fail(r, "spy", "no %s on Blue's side of wall %d to cover",
                                 dw_card_name[f], (int)w);
        blue_archers[w - 1][f]--;
    }
    t->spy_on = (uint8_t)f;
    return RP_OK;
}

/* wall1..wall5 (Blue's side/Red's side) and the Spy. */
static int read_walls(rp_reader *r, dw_state *t)
{
    uint8_t blue_archers[DW_WALLS][3] = {{0}};
    dw_side sides[DW_WALLS][2];
    memset(sides, 0, sizeof sides);
    for (int w = 0; w < DW_WALLS; w++) {
        rp_span v, blue, red;
        int rc = rp__read_field(r, WALL_KEY[w], &v);
        if (rc < 0)
            return rc;
        if (!rp__span_split(v, '/', &blue, &red))
            return rp__read_fail(r, WALL_KEY[w], "write <Blue's side>/<Red's side>");
        dw_side *red_side = &sides[w][DW_RED];
        if ((rc = read_side(r, WALL_KEY[w], blue, &sides[w][DW_BLUE], blue_archers[w])) < 0 ||
            (rc = read_side(r, WALL_KEY[w], red, red_side, red_side->archers)) < 0)
            return rc;
    }
    int rc = read_spy(r, t, blue_archers);
    if (rc < 0)
        return rc;
    for (int w = 0; w < DW_WALLS; w++) {
        memcpy(sides[w][DW_BLUE].archers, blue_archers[w], 3);
        for (int seat = 0; seat < 2; seat++)
            dw_set_side(t, w, seat, &sides[w][seat]);
    }
    return RP_OK;
}

/* Hands, personal decks, the main deck and the removed piles. */
static int read_cards(rp_reader *r, dw_state *t)
{
    uint8_t n;
    int rc = RP_OK;
    for (int p = 0; p < 2 && rc == RP_OK; p++)
        rc = read_counts(r, HAND_KEY[p], t->hand[p], DW_HAND, &t->hand_n[p]);
    for (int p = 0; p < 2 && rc == RP_OK; p++)
        rc = read_faces(r, DECK_KEY[p], t->personal[p], DW_PERSONAL, &t->personal_n[p]);
    if (rc == RP_OK)
        rc = read_faces(r, "main", t->main, DW_MAIN, &t->main_n);
    for (int p = 0; p < 2 && rc == RP_OK; p++)
        rc = read_counts(r, REMOVED_KEY[p], t->removed[p], 49, &n);
    return rc;
}

/* Parse into a local state, check every invariant and the canonical spelling, and only then
 * replace *st. */
int dw_state_from_text(void *st, const char *text, rp_error *err)
{
    rp_reader r;
    int rc = rp__read_begin(&r, text, DW_NOTATION_TAG, err);
    if (rc < 0)
        return rc;
    dw_state t;
    memset(&t, 0, sizeof t);
    if ((rc = read_header(&r, &t)) < 0 || (rc = read_walls(&r, &t)) < 0 ||
        (rc = read_cards(&r, &t)) < 0 || (rc = rp__read_rng(&r, &t.rng)) < 0 ||
        (rc = rp__read_end(&r)) < 0)
        return rc;
    rp_error why = {{0}};
    if (dw_state_ok(&t, &why) < 0)
        return rp_fail(err, RP_EPARSE, "not a position of the game: %s", why.msg);
    if ((rc = rp__read_canonical(&r, dw_state_to_text, &t)) < 0)
        return rc;
    memcpy(st, &t, sizeof t);
    return RP_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Explanations, the move summary and secret names                                            */

/* Why a Cannon Attack cannot go where it aims (DW-6, DW-P1). */
static int explain_attack(const dw_state *s, const dw_move *m, char *buf, size_t size)
{
    const int p = s->to_move, q = p ^ 1, w = m->wall;
    const dw_side opp_side = dw_side_at(s, w, q), *opp = &opp_side;
    if (!s->camp[p].ncannon[w])
        return snprintf(buf, size,
                        "a Cannon Attack needs your own Cannon at the wall it "
                        "attacks, and you have none at wall %d (DW-6)",
                        w + 1);
    if (p == DW_BLUE && dw_spy_on_top_cannon(s, w))
        return snprintf(buf, size,
                        "your Cannon at wall %d is covered by the Spy, so it cannot "
                        "attack (DW-6)",
                        w + 1);
    if (m->target == 0 && !opp->ncannon)
        return snprintf(buf, size, "%s has no Cannon at wall %d to remove", dw_seat_names[q],
                        w + 1);
    if (m->target == 0)
        return snprintf(buf, size,
                        "%s's Cannon at wall %d is covered by the Spy and cannot be "
                        "moved (DW-6, DW-P1)",
                        dw_seat_names[q], w + 1);
    if (q == DW_BLUE && s->spy_wall == w + 1 && s->spy_on <= DW_A3)
        return snprintf(buf, size,
                        "%s's only Archer at wall %d is covered by the Spy and "
                        "cannot be moved (DW-6, DW-P1)",
                        dw_seat_names[q], w + 1);
    return snprintf(buf, size, "%s has no Archers at wall %d to remove", dw_seat_names[q], w + 1);
}

/* Why the Spy or the Assassin has nothing to aim at (DW-8, DW-9, DW-P2, DW-P3). */
static int explain_target(const dw_state *s, const dw_move *m, char *buf, size_t size)
{
    const int w = m->wall;
    const bool spy = m->kind == K_SPY;
    if (!spy && m->target == 7)
        return s->spy_wall != w + 1
                   ? snprintf(buf, size, "the Spy is not at wall %d", w + 1)
                   : snprintf(buf, size,
                              "the Spy at wall %d lies on a buried Cannon and cannot "
                              "be targeted (DW-9, DW-P2)",
                              w + 1);
    const int f = dw_target_face(s, m);
    const char *what = m->target == 3 || f < 0 ? "Cannon" : dw_card_name[f];
    return snprintf(buf, size, "%s has no %s at wall %d for the %s (%s)",
                    dw_seat_names[spy ? DW_BLUE : DW_RED], what, w + 1,
                    spy ? "Spy to cover" : "Assassin to remove", spy ? "DW-8" : "DW-9");
}

/* Why a play cannot be made: a card not held (or not yours), then the rule it breaks. */
static int explain_play(const dw_state *s, const dw_move *m, char *buf, size_t size)
{
    const int p = s->to_move;
    for (int f = 0; f < DW_FACES; f++) {
        if (!m->cards[f] || m->cards[f] <= s->hand[p][f])
            continue;
        if (!HAND_FACES[p][f])
            return snprintf(buf, size, "%s is %s's card, not yours", dw_card_name[f],
                            dw_seat_names[p ^ 1]);
        char hand[200];
        dw_cards_text(hand, sizeof hand, s->hand[p]);
        if (s->hand[p][f])
            return snprintf(buf, size, "you hold only %d %s: your hand is %s", s->hand[p][f],
                            dw_card_name[f], hand);
        return snprintf(buf, size, "you do not hold %s: your hand is %s", dw_card_name[f], hand);
    }
    switch (m->kind) {
    case K_FLAG:
        return snprintf(buf, size,
                        "wall %d already has a Flag: a Flag goes on a wall without "
                        "one (DW-2)",
                        m->wall + 1);
    case K_ATTACK:
        return explain_attack(s, m, buf, size);
    case K_SPY:
    case K_ASSASSIN:
        return explain_target(s, m, buf, size);
    case K_DISCARD: {
        rp_action legal[RP_MAX_LEGAL];
        char text[RP_ACTION_TEXT];
        dw_legal_actions(s, legal);
        dw_action_to_text(s, legal[0], text, sizeof text);
        return snprintf(buf, size,
                        "you may discard only when no card in your hand can be "
                        "played (DW-4), and you can play e.g. '%s'",
                        text);
    }
    default:
        return -1;
    }
}

/* Why `action` is not legal in st, in the game's words; -1 when it is legal. */
int dw_explain_illegal(const void *st, rp_action action, char *buf, size_t size)
{
    const dw_state *s = st;
    if (action >= DW_NUM_ACTIONS || s->over || rp__is_legal_by(dw_legal_actions, s, action))
        return -1;
    const dw_move m = dw_decode(action);
    if (m.kind == K_DRAW) {
        if (s->phase == DW_PHASE_PLAY)
            return snprintf(buf, size,
                            "you draw only after your play, to refill your hand "
                            "(DW-11)");
        return snprintf(buf, size, "%s is empty: draw from the %s deck",
                        m.target ? "the main deck" : "your personal deck",
                        m.target ? "personal" : "main");
    }
    if (s->phase == DW_PHASE_REFILL)
        return snprintf(buf, size,
                        "you have made your play: refill your hand with 'draw "
                        "personal' or 'draw main' (DW-11)");
    return explain_play(s, &m, buf, size);
}
