/* view.c — what Castle Danger shows: the view as JSON, the board drawn for a terminal,
 * actions as data, the events an action set off, and the (empty) list of secrets. */
#include "games/castle-danger/internal.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <string.h>

#include "core/events.h"
#include "core/view.h"

/* ---- views ---- */

static cJSON *square_json(int sq)
{
    char name[3];
    return cJSON_CreateString(cd_square_name(sq, name));
}

/* The squares of a bitboard as an array of names. */
static cJSON *squares_json(uint64_t b)
{
    cJSON *arr = cJSON_CreateArray();
    for (; b && arr; b &= b - 1)
        cJSON_AddItemToArray(arr, square_json(low_bit(b)));
    return arr;
}

/* Every piece as {"square", "seat", "piece", "fired"} and every Fire as {"square", "seat"}. */
static void add_board_items(cJSON *v, const cd_state *s)
{
    cJSON *pieces = cJSON_AddArrayToObject(v, "pieces");
    cJSON *fire = cJSON_AddArrayToObject(v, "fire");
    for (int side = 0; side < 2; side++) {
        for (int k = 0; k < CD_KINDS; k++)
            for (uint64_t b = s->piece[side][k]; b; b &= b - 1) {
                cJSON *p = cJSON_CreateObject();
                cJSON_AddItemToObject(p, "square", square_json(low_bit(b)));
                cJSON_AddNumberToObject(p, "seat", side);
                cJSON_AddStringToObject(p, "piece", thing_word[k]);
                cJSON_AddBoolToObject(p, "fired", (s->fired >> low_bit(b)) & 1);
                cJSON_AddItemToArray(pieces, p);
            }
        for (uint64_t b = s->fire[side]; b; b &= b - 1) {
            cJSON *f = cJSON_CreateObject();
            cJSON_AddItemToObject(f, "square", square_json(low_bit(b)));
            cJSON_AddNumberToObject(f, "seat", side);
            cJSON_AddItemToArray(fire, f);
        }
    }
    cJSON_AddItemToObject(v, "walls", squares_json(s->walls));
    cJSON_AddItemToObject(v, "fired", squares_json(s->fired));
}

/* The supply left (CD-2, CD-10): {"blue": {"wizard", "builder", "cannon", "fire"}, "red":
 * {...}, "walls"}. */
static cJSON *supply_json(const cd_state *s)
{
    cJSON *supply = cJSON_CreateObject();
    for (int side = 0; side < 2; side++) {
        cJSON *own = cJSON_AddObjectToObject(supply, side_word[side]);
        for (int k = CD_WIZARD; k <= CD_CANNON; k++)
            cJSON_AddNumberToObject(own, thing_word[k], supply_left(s, side, k));
        cJSON_AddNumberToObject(own, "fire", MAX_FIRE - count_bits(s->fire[side]));
    }
    cJSON_AddNumberToObject(supply, "walls", MAX_WALLS - count_bits(s->walls));
    return supply;
}

/* Everything, since nothing is hidden: the same for both seats and the spectator. */
cJSON *cd_view_json(const void *st, int viewer)
{
    const cd_state *s = st;
    (void)viewer; /* everyone sees everything */
    cJSON *v = rp__view_new(CD_ID);
    if (!v)
        return NULL;
    char text[RP_STATE_TEXT], letters[CD_SQUARES];
    cd_state_to_text(s, text, sizeof text);
    cd_board_letters(s, letters);
    cJSON_AddStringToObject(v, "position", text);
    cJSON_AddStringToObject(v, "to_move", side_word[s->side]);
    cJSON_AddNumberToObject(v, "moves_left", s->moves);
    cJSON_AddBoolToObject(v, "add_open", s->add_open);
    cJSON_AddNumberToObject(v, "add_cost", add_cost(s));
    cJSON_AddNumberToObject(v, "turn", s->turn);
    if (s->limit)
        cJSON_AddNumberToObject(v, "turn_limit", s->limit);
    else
        cJSON_AddNullToObject(v, "turn_limit");
    cJSON_AddBoolToObject(v, "tournament", s->tournament);
    cJSON_AddStringToObject(v, "result", result_word[s->result]);
    cJSON *board = cJSON_AddArrayToObject(v, "board");
    for (int r = CD_ROWS; r >= 1; r--) {
        char rank[CD_COLS + 1];
        for (int c = 0; c < CD_COLS; c++) {
            const char ch = letters[CD_SQ(c, r)];
            rank[c] = ch ? ch : r == 5 ? '~' : '.';
        }
        rank[CD_COLS] = '\0';
        cJSON_AddItemToArray(board, cJSON_CreateString(rank));
    }
    add_board_items(v, s);
    cJSON_AddItemToObject(v, "supply", supply_json(s));
    return v;
}

/* Nothing is secret in Castle Danger: always the empty list. */
int cd_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    (void)st;
    (void)viewer;
    if (size == 0)
        return RP_ENOSPACE;
    buf[0] = '\0';
    return 0;
}

/* ---- rendering ---- */

#define ANSI_RESET "\x1b[0m"

/* One board cell, three characters wide, with colours when asked. */
static void render_cell(const cd_state *s, const char *letters, int sq, FILE *out, bool color)
{
    const char ch = letters[sq];
    const uint64_t bit = 1ULL << sq;
    const bool fired = (s->fired >> sq) & 1;
    const char *ground = (RIVER & bit) ? "\x1b[44m" : (SAND & bit) ? "\x1b[43m" : "\x1b[42m";
    char cell[4] = {' ', '.', ' ', '\0'};
    const char *fg = "\x1b[30m";
    if (RIVER & bit)
        cell[1] = '~';
    else if (SAND & bit)
        cell[1] = ':';
    if ((portal[0] | portal[1]) & bit && !ch)
        cell[1] = 'o';
    if (ch) {
        cell[1] = ch;
        if (ch == '#')
            fg = "\x1b[1;37m";
        else if (ch == 'F' || ch == 'f') {
            cell[0] = '*';
            cell[2] = '*';
            fg = ch == 'F' ? "\x1b[1;34m" : "\x1b[1;31m";
        } else
            fg = islower((unsigned char)ch) ? "\x1b[1;31m" : "\x1b[1;34m";
        if (fired)
            cell[2] = '\'';
    }
    if (color)
        fprintf(out, "%s%s%s" ANSI_RESET, ground, fg, cell);
    else
        fputs(cell, out);
}

/* "1 Wizard", "2 Wizards": a count and its noun, singular for one. */
static void put_count(FILE *out, int n, const char *noun)
{
    fprintf(out, "%d %s%s", n, noun, n == 1 ? "" : "s");
}

/* One line per side: supply left and pieces on the board (CD-2). */
static void render_side_line(const cd_state *s, int side, FILE *out)
{
    fprintf(out, "  %-4s supply: ", side_title[side]);
    put_count(out, supply_left(s, side, CD_WIZARD), "Wizard");
    fputs(", ", out);
    put_count(out, supply_left(s, side, CD_BUILDER), "Builder");
    fputs(", ", out);
    put_count(out, supply_left(s, side, CD_CANNON), "Cannon");
    fprintf(out, ", %d Fire; on board: ", MAX_FIRE - count_bits(s->fire[side]));
    put_count(out, count_bits(s->piece[side][CD_WIZARD]), "Wizard");
    fputs(", ", out);
    put_count(out, count_bits(s->piece[side][CD_BUILDER]), "Builder");
    fputs(", ", out);
    put_count(out, count_bits(s->piece[side][CD_CANNON]), "Cannon");
    fputs("\n", out);
}

/* The board for a terminal, the viewer's side at the bottom (Blue's for the spectator), with
 * the legend and supply, ending with whose turn it is and the moves left this turn. */
void cd_render(const void *st, int viewer, FILE *out, bool color)
{
    const cd_state *s = st;
    const bool red_view = viewer == CD_RED;
    char letters[CD_SQUARES];
    cd_board_letters(s, letters);
    fprintf(out, "Castle Danger, turn %u", s->turn);
    if (s->limit)
        fprintf(out, " of %d%s", s->limit, s->tournament ? " (tournament)" : "");
    else
        fputs(" (no turn limit)", out);
    if (viewer == CD_BLUE || viewer == CD_RED)
        fprintf(out, "; you are %s", viewer == CD_BLUE ? "Blue (capitals)" : "Red (small letters)");
    else
        fputs("; you are watching", out);
    fputc('\n', out);
    fputs("  K King  W Wizard  B Builder  C Cannon (Blue capitals, Red small; ' = fired)\n"
          "  # Wall  *F* Blue Fire  *f* Red Fire  o Portal  : sand  ~ river  . grass\n",
          out);
    render_side_line(s, CD_BLUE, out);
    render_side_line(s, CD_RED, out);
    fprintf(out, "  Walls in supply: %d\n", MAX_WALLS - count_bits(s->walls));
    fputs("     a  b  c  d  e  f  g\n", out);
    for (int i = 0; i < CD_ROWS; i++) {
        const int r = red_view ? i + 1 : CD_ROWS - i;
        fprintf(out, "  %d ", r);
        for (int c = 0; c < CD_COLS; c++)
            render_cell(s, letters, CD_SQ(c, r), out, color);
        fprintf(out, " %d\n", r);
    }
    fputs("     a  b  c  d  e  f  g\n", out);
    if (s->result == CD_DRAW)
        fputs("  Game over: draw (turn limit reached)\n", out);
    else if (s->result != CD_ONGOING)
        fprintf(out, "  Game over: %s wins (King hit)\n",
                s->result == CD_BLUE_WON ? "Blue" : "Red");
    else {
        fprintf(out, "  %s to move, %d move%s left this turn", side_title[s->side], s->moves,
                s->moves == 1 ? "" : "s");
        if (s->add_open)
            fprintf(out, "; add step open (costs %d)", add_cost(s));
        fputc('\n', out);
    }
}

/* ---- actions as data ---- */

/* {"kind": "move|add|build|remove|fire|end", "seat", ...the parts as data}: "piece" then
 * "from" and "to" squares, Builders "by" for building and removing, a shot's "distance" and
 * "target", and the "cost" in moves (docs/games/castle-danger.md). */
cJSON *cd_action_json(const void *st, rp_action action)
{
    const cd_state *s = st;
    char text[RP_ACTION_TEXT];
    if (cd_action_to_text(s, action, text, sizeof text) < 0)
        return NULL;
    cJSON *a = cJSON_CreateObject();
    if (!a)
        return NULL;
    int cost = 1;
    if (action == A_END) {
        cJSON_AddStringToObject(a, "kind", "end");
        cJSON_AddNumberToObject(a, "forfeit", s->moves);
        cost = 0;
    } else if (action < A_MOVE) {
        cJSON_AddStringToObject(a, "kind", "add");
        cJSON_AddStringToObject(a, "piece", thing_word[action - A_ADD + 1]);
        cJSON_AddItemToObject(a, "to", square_json(low_bit(portal[s->side])));
        cost = add_cost(s);
    } else if (action < A_BUILD) {
        const int from = (int)(action - A_MOVE) >> 2, to = from + dir_delta[(action - A_MOVE) & 3];
        int owner;
        cJSON_AddStringToObject(a, "kind", "move");
        cJSON_AddStringToObject(a, "piece", thing_word[cd_thing_at(s, from, &owner)]);
        cJSON_AddItemToObject(a, "from", square_json(from));
        cJSON_AddItemToObject(a, "to", square_json(to));
    } else if (action < A_FIRE) {
        const int sq = (int)action - (action < A_REMOVE ? A_BUILD : A_REMOVE);
        cJSON_AddStringToObject(a, "kind", action < A_REMOVE ? "build" : "remove");
        cJSON_AddItemToObject(a, "by", squares_json(builders_next_to(s, sq)));
        cJSON_AddItemToObject(a, "to", square_json(sq));
    } else {
        const int from = (int)(action - A_FIRE) >> 3, dist = (int)((action - A_FIRE) & 7) + 1;
        const int to = from + (s->side == CD_BLUE ? 7 : -7) * dist;
        int owner;
        const int target = cd_thing_at(s, to, &owner);
        cJSON_AddStringToObject(a, "kind", "fire");
        cJSON_AddStringToObject(a, "piece", "cannon");
        cJSON_AddItemToObject(a, "from", square_json(from));
        cJSON_AddItemToObject(a, "to", square_json(to));
        cJSON_AddNumberToObject(a, "distance", dist);
        if (target == T_NONE)
            cJSON_AddNullToObject(a, "target");
        else
            cJSON_AddStringToObject(a, "target", thing_word[target]);
        if (owner >= 0)
            cJSON_AddNumberToObject(a, "owner", owner);
        cost = dist;
    }
    cJSON_AddNumberToObject(a, "seat", s->side);
    cJSON_AddNumberToObject(a, "cost", cost);
    return a;
}

/* ---- events ---- */

/* "Blue's Wizard", "Red's Fire" or "the Wall": what a note's thing was. */
static void thing_phrase(int what, int owner, char *buf, size_t size)
{
    if (owner >= 0)
        snprintf(buf, size, "%s's %s", side_title[owner], thing_title[what]);
    else
        snprintf(buf, size, "the %s", thing_title[what]);
}

/* " (1 move; 5 left)": what an action paid and what remains. */
static void cost_phrase(const cd_note *n, char *buf, size_t size)
{
    snprintf(buf, size, " (%d move%s; %d left)", n->count, n->count == 1 ? "" : "s", n->left);
}

/* The part an event's squares, as data. */
static void add_square(cJSON *e, const char *key, int sq)
{
    if (e && sq >= 0)
        cJSON_AddItemToObject(e, key, square_json(sq));
}

/* The events of an action by the side to move: the action itself. */
static void tell_action(cJSON *events, const cd_note *n)
{
    const char *who = side_title[n->side];
    char from[3] = "", to[3] = "", cost[40];
    if (n->from >= 0)
        cd_square_name(n->from, from);
    if (n->to >= 0)
        cd_square_name(n->to, to);
    cost_phrase(n, cost, sizeof cost);
    cJSON *e = NULL;
    switch (n->kind) {
    case N_MOVE:
        e = rp__event(events, "move", n->side, "%s moves the %s from %s to %s%s.", who,
                      thing_title[n->what], from, to, cost);
        cJSON_AddStringToObject(e, "piece", thing_word[n->what]);
        break;
    case N_ADD:
        e = rp__event(events, "add", n->side,
                      "%s adds a %s on its Portal %s, %s; %d move%s "
                      "left.",
                      who, thing_title[n->what], to,
                      n->count ? "for 2 moves (it has at least as many pieces as its opponent)"
                               : "free (it has fewer pieces than its opponent)",
                      n->left, n->left == 1 ? "" : "s");
        cJSON_AddStringToObject(e, "piece", thing_word[n->what]);
        break;
    case N_BUILD:
        e = rp__event(events, "build", n->side, "%s's Builder builds a Wall on %s%s.", who, to,
                      cost);
        break;
    case N_REMOVE:
        e = rp__event(events, "remove", n->side, "%s's Builder removes the Wall on %s%s.", who, to,
                      cost);
        break;
    default: /* N_FIRE */
        e = rp__event(events, "fire", n->side, "%s's Cannon on %s fires %d square%s to %s%s%s.",
                      who, from, n->count, n->count == 1 ? "" : "s", to, cost,
                      ((portal[0] | portal[1]) >> n->to) & 1 ? "; a Portal holds no Fire" : "");
        cJSON_AddNumberToObject(e, "distance", n->count);
        break;
    }
    add_square(e, "from", n->from);
    add_square(e, "to", n->to);
    cJSON_AddNumberToObject(e, "cost", n->count);
    cJSON_AddNumberToObject(e, "moves_left", n->left);
}

/* What a shot hit and the Fire it left (lasting through the opponent's turn). */
static void tell_shot(cJSON *events, const cd_note *n, const cd_state *after)
{
    char to[3], thing[40];
    cd_square_name(n->to, to);
    cJSON *e;
    if (n->kind == N_BURN) {
        e = rp__event(events, "burn", n->side, "%s's Fire burns on %s%s.", side_title[n->side], to,
                      after->result == CD_ONGOING ? " through the opponent's turn" : "");
        add_square(e, "square", n->to);
        return;
    }
    thing_phrase(n->what, n->owner, thing, sizeof thing);
    if (n->what == T_WALL)
        e = rp__event(events, "hit", n->side, "The ball destroys the Wall on %s.", to);
    else if (n->what == T_FIRE)
        e = rp__event(events, "hit", n->side, "The ball lands on %s on %s, which goes out.", thing,
                      to);
    else
        e = rp__event(events, "hit", n->side, "The ball hits %s on %s%s.", thing, to,
                      n->what == CD_KING ? "" : ", which is removed");
    add_square(e, "square", n->to);
    cJSON_AddStringToObject(e, "target", thing_word[n->what]);
    if (n->owner >= 0)
        cJSON_AddNumberToObject(e, "owner", n->owner);
}

/* The squares of a bitboard as "c3, d4". */
static void squares_phrase(uint64_t b, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (; b && len + 5 < size; b &= b - 1) {
        char name[3];
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
                                cd_square_name(low_bit(b), name));
    }
}

/* The end of a turn and the start of the next (CD-3), or the end of the game. */
static void tell_flow(cJSON *events, const cd_note *n, const cd_state *after)
{
    const char *who = side_title[n->side];
    char squares[64];
    cJSON *e;
    switch (n->kind) {
    case N_END:
        if (n->what)
            e = rp__event(events, "end", n->side, "%s ends the turn%s%d move%s.", who,
                          n->count ? ", forfeiting " : " with ", n->count,
                          n->count == 1 ? "" : "s");
        else
            e = rp__event(events, "end", n->side, "%s has used all its moves; the turn ends.", who);
        cJSON_AddNumberToObject(e, "forfeited", n->count);
        break;
    case N_FIRE_OUT:
    case N_RESET:
        squares_phrase(n->squares, squares, sizeof squares);
        e = n->kind == N_FIRE_OUT
                ? rp__event(events, "fire-out", n->side, "%s's Fire on %s goes out.", who, squares)
                : rp__event(events, "reset", n->side, "%s's fired Cannons on %s are reset.", who,
                            squares);
        cJSON_AddItemToObject(e, "squares", squares_json(n->squares));
        break;
    case N_TURN: {
        const int wizards = (n->count - 3) / 3;
        e = rp__event(events, "turn", n->side, "%s's turn %u: %d moves (3 + 3 x %d Wizard%s).", who,
                      after->turn, n->count, wizards, wizards == 1 ? "" : "s");
        cJSON_AddNumberToObject(e, "turn", after->turn);
        cJSON_AddNumberToObject(e, "moves", n->count);
        break;
    }
    default: /* N_OVER */
        if (after->result == CD_DRAW) {
            e = rp__event(events, "game-over", -1,
                          "Red's turn %u ends without a King hit: the "
                          "game is drawn at the turn limit.",
                          after->turn);
            cJSON_AddStringToObject(e, "reason", "turn-limit");
        } else {
            const int winner = after->result == CD_BLUE_WON ? CD_BLUE : CD_RED;
            char to[3];
            e = rp__event(events, "game-over", winner, "%s's King is hit on %s%s: %s wins.",
                          side_title[n->owner], cd_square_name(n->to, to),
                          n->owner == n->side ? " by its own Cannon" : "", side_title[winner]);
            cJSON_AddStringToObject(e, "reason", "king-hit");
        }
        cJSON_AddStringToObject(e, "result", result_word[after->result]);
        double score[2];
        cd_returns(after, score);
        cJSON_AddItemToObject(e, "score", cJSON_CreateDoubleArray(score, 2));
        break;
    }
}

/* Everything an action did, for any viewer (nothing is hidden, so every viewer hears the
 * same): the action, what a shot hit and the Fire it left, the end of the turn, the next
 * turn's start, the end of the game. */
cJSON *cd_events_json(const void *before, rp_action action, int viewer)
{
    (void)viewer;
    cd_state after;
    memcpy(&after, before, sizeof after);
    cd_story story = {0};
    cd_play_told(&after, action, &story);
    cJSON *events = cJSON_CreateArray();
    if (!events)
        return NULL;
    for (int i = 0; i < story.count; i++) {
        const cd_note *n = &story.note[i];
        if (n->kind <= N_FIRE)
            tell_action(events, n);
        else if (n->kind <= N_BURN)
            tell_shot(events, n, &after);
        else
            tell_flow(events, n, &after);
    }
    return events;
}
