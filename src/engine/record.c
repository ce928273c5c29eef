/* record.c — game records: a plain-text file of [header] lines, then the history one entry a
 * line (see engine.h), which `ramparts play` writes and `ramparts replay` reads back and
 * verifies entry by entry. A record names the options in effect, so it replays as the game
 * that was played, and its [result] is checked against the replay. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "internal.h"

/* The options text of cfg without its "seed=N" word: records give the seed its own line. */
static int options_text(const rp_game *game, const rp_config *cfg, char *buf, size_t size)
{
    rp_config no_seed = *cfg;
    no_seed.seed = 0;
    int n = rp_config_to_text(game, &no_seed, buf, size);
    if (n < 0)
        return n;
    char *seed = strstr(buf, " seed=0");
    if (seed)
        memmove(seed, seed + 7, strlen(seed + 7) + 1);
    return RP_OK;
}

/* "0+2": the seats of a mask, lowest first. */
static void write_seats(uint32_t seats, FILE *out)
{
    for (int p = 0, first = 1; p < RP_MAX_PLAYERS; p++)
        if (seats & 1u << p) {
            fprintf(out, "%s%d", first ? "" : "+", p);
            first = 0;
        }
}

static int write_entry(const rp_game *game, const rp__entry *e, const void *st, FILE *out)
{
    char text[RP_ACTION_TEXT];
    switch (e->kind) {
    case RP_ENTRY_MOVE:
        if (game->action_to_text(st, e->action, text, sizeof text) < 0)
            return RP_EINVAL;
        fprintf(out, "%s\n", text);
        break;
    case RP_ENTRY_UNDO:
        fprintf(out, "# %s took back %" PRIu64 " move%s (undo)\n[undo %d %" PRIu64 "]\n",
                rp_seat_name(game, e->seat), e->value, e->value == 1 ? "" : "s", e->seat, e->value);
        break;
    case RP_ENTRY_RESAMPLE:
        fprintf(out, "[resample ");
        write_seats(e->seats ? e->seats : 1u << e->seat, out);
        fprintf(out, " %" PRIu64 "]\n", e->value);
        break;
    case RP_ENTRY_END:
        if (e->reason == RP_END_RESIGNED) { /* the line records wrote before other endings */
            fprintf(out, "[resign %d]\n", e->seat);
            break;
        }
        fprintf(out, "[end %s%s", rp_end_word(e->reason), e->seats ? " " : "");
        write_seats(e->seats, out);
        fprintf(out, "]\n");
        break;
    }
    return RP_OK;
}

int rp_record_write(const rp_match *m, FILE *out)
{
    const rp_game *game = m->game;
    char options[2048];
    if (options_text(game, &m->config, options, sizeof options) < 0)
        return RP_ENOSPACE;
    fprintf(out, "# Ramparts game record\n[game %s]\n[seed %" PRIu64 "]\n[options %s]\n", game->id,
            m->config.seed, options);
    for (int p = 0; p < rp_match_players(m); p++)
        fprintf(out, "[seat %d %s]\n", p, m->seats[p]);
    if (m->from_position)
        fprintf(out, "[position %s]\n", m->position);
    char status[256];
    rp_match_status(m, status, sizeof status);
    fprintf(out, "[result %s]\n", status);
    rp_state st;
    rp_state_copy(game, &st, &m->start);
    for (size_t i = 0; i < m->length; i++) {
        if (write_entry(game, &m->history[i], &st, out) < 0)
            return RP_EINVAL;
        rp__apply_entry(m, &m->history[i], &st);
    }
    return ferror(out) ? RP_EIO : RP_OK;
}

/* ---- reading ---- */

/* Strip surrounding blanks in place; returns the start. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

typedef struct record_reader {
    rp_match *m;
    const rp_game *game;
    rp_config cfg;
    bool has_options, started;
    char seats[RP_MAX_PLAYERS][RP_RECORD_SEAT_TEXT];
    long seat_line[RP_MAX_PLAYERS];
    char *position; /* owned copy of [position] */
    long position_line, options_line;
    char result[256];
    long result_line;
    const char *name;
    long line;
} record_reader;

static int fail_at(const record_reader *r, rp_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* "NAME:LINE: message". */
static int fail_at(const record_reader *r, rp_error *err, const char *fmt, ...)
{
    char msg[RP_ERROR_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rp_fail(err, RP_EPARSE, "%s:%ld: %s", r->name, r->line, msg);
}

/* With a position, the position decides the options; [options] must agree with it. */
static int check_position_options(record_reader *r, rp_error *err)
{
    if (!r->has_options)
        return RP_OK;
    char said[2048], in_effect[2048];
    options_text(r->game, &r->cfg, said, sizeof said);
    options_text(r->game, &r->m->config, in_effect, sizeof in_effect);
    if (strcmp(said, in_effect) == 0)
        return RP_OK;
    return rp_fail(err, RP_EPARSE, "%s:%ld: [options %s] disagree with the position's (%s)",
                   r->name, r->options_line, said, in_effect);
}

/* The match starts at the first history line (or at the end): the header is complete. */
static int start_match(record_reader *r, rp_error *err)
{
    if (r->started)
        return RP_OK;
    if (!r->game)
        return fail_at(r, err, "no [game ...] line before the moves");
    rp_error inner;
    if (r->position) {
        /* The position decides the options: the record's may not even set up a game of
         * their own (another player count), so the game is set up from its defaults, then
         * replaced by the position, which reports the options in effect. */
        rp_config defaults;
        rp_config_default(r->game, &defaults);
        if (!(r->m = rp_match_new(r->game, &defaults, &inner)))
            return rp_fail(err, RP_EPARSE, "%s: %s", r->name, inner.msg);
        r->started = true;
        r->m->config = r->cfg;
        if (rp_match_load(r->m, r->position, &inner) < 0)
            return rp_fail(err, RP_EPARSE, "%s:%ld: bad position: %s", r->name, r->position_line,
                           inner.msg);
        if (check_position_options(r, err) < 0)
            return RP_EPARSE;
    } else {
        if (!(r->m = rp_match_new(r->game, &r->cfg, &inner)))
            return rp_fail(err, RP_EPARSE, "%s:%ld: %s", r->name,
                           r->options_line ? r->options_line : r->line, inner.msg);
        r->started = true;
    }
    const int players = rp_match_players(r->m);
    for (int p = 0; p < RP_MAX_PLAYERS; p++) {
        if (!r->seats[p][0])
            continue;
        if (p >= players)
            return rp_fail(err, RP_EPARSE, "%s:%ld: [seat %d] but the game has %d players", r->name,
                           r->seat_line[p], p, players);
        if (rp_match_set_player(r->m, p, r->seats[p], &inner) < 0)
            return rp_fail(err, RP_EPARSE, "%s:%ld: %s", r->name, r->seat_line[p], inner.msg);
    }
    return RP_OK;
}

static int read_options(record_reader *r, char *value, rp_error *err)
{
    if (!r->game)
        return fail_at(r, err, "[options] before [game]");
    char *save = NULL;
    for (char *tok = strtok_r(value, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        rp_error inner;
        if (strncmp(tok, "seed=", 5) == 0)
            return fail_at(r, err, "the seed has its own line, [seed N]");
        if (rp_config_set(r->game, &r->cfg, tok, &inner) < 0)
            return fail_at(r, err, "%s", inner.msg);
    }
    r->has_options = true;
    r->options_line = r->line;
    return RP_OK;
}

static int read_seat(record_reader *r, const char *value, rp_error *err)
{
    /* strtol, not sscanf's %d: an out-of-range number is refused, never undefined. */
    char *end;
    errno = 0;
    const long number = isdigit((unsigned char)*value) ? strtol(value, &end, 10) : -1;
    const int seat = errno || number < 0 || number >= RP_MAX_PLAYERS ? -1 : (int)number;
    size_t used = seat < 0 ? 0 : (size_t)(end - value);
    while (seat >= 0 && value[used] == ' ')
        used++;
    if (seat < 0 || used == (size_t)(end - value) || !value[used] ||
        strlen(value + used) >= RP_RECORD_SEAT_TEXT)
        return fail_at(r, err, "[seat N WHO] expected, N from 0 to %d", RP_MAX_PLAYERS - 1);
    if (r->seats[seat][0])
        return fail_at(r, err, "a second [seat %d]", seat);
    snprintf(r->seats[seat], sizeof r->seats[seat], "%s", value + used);
    r->seat_line[seat] = r->line;
    return RP_OK;
}

/* A whole number with nothing after it. */
static bool parse_u64(const char *text, uint64_t *out)
{
    if (!isdigit((unsigned char)*text))
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* "S" or, for a re-sample keeping several seats' views, "S+T+...": the first seat in *seat,
 * and every seat's bit in *seats when there are several (else 0). */
static bool parse_seats(char *text, bool several_allowed, uint64_t *seat, uint32_t *seats)
{
    char *save = NULL;
    uint32_t mask = 0;
    int count = 0;
    for (char *part = strtok_r(text, "+", &save); part; part = strtok_r(NULL, "+", &save)) {
        uint64_t s;
        if (!parse_u64(part, &s) || s >= RP_MAX_PLAYERS || (mask & 1u << s))
            return false;
        if (count++ == 0)
            *seat = s;
        mask |= 1u << s;
    }
    *seats = count > 1 ? mask : 0;
    return count == 1 || (count > 1 && several_allowed);
}

/* ---- history lines: the entries they append ---- */

static int check_resample(const rp_match *m, const rp__entry *e, rp_error *err)
{
    const int players = rp_match_players(m);
    if (!(m->game->flags & (RP_HIDDEN_INFO | RP_CHANCE)))
        return rp_fail(err, RP_EINVAL, "%s has nothing hidden to re-sample", m->game->id);
    if (!e->seats)
        return RP_OK;
    if (!m->game->determinize_seats)
        return rp_fail(err, RP_EINVAL, "%s re-samples for one seat at a time", m->game->id);
    if (e->seats >> players || !(e->seats & (e->seats - 1)) ||
        (e->seats & ((2u << e->seat) - 1)) != 1u << e->seat)
        return rp_fail(err, RP_EINVAL,
                       "a re-sample for several seats names two or more "
                       "of seats 0 to %d, lowest first",
                       players - 1);
    return RP_OK;
}

/* One history entry read from a record: a move (checked like rp_match_play), an undo note, a
 * re-sample (applied) or an ending. Refused with the reason, m unchanged. */
static int match_append(rp_match *m, const rp__entry *e, rp_error *err)
{
    const int players = rp_match_players(m);
    if (e->kind == RP_ENTRY_MOVE)
        return rp_match_play(m, e->action, err);
    if (e->kind == RP_ENTRY_END)
        return rp_match_end(m, e->reason, e->seats, err);
    if (rp_match_over(m))
        return rp_fail(err, RP_EOVER, "the game is over");
    if (e->seat < 0 || e->seat >= players)
        return rp_fail(err, RP_EINVAL, "no seat %d: seats are 0 to %d", e->seat, players - 1);
    if (e->kind == RP_ENTRY_UNDO && e->value == 0)
        return rp_fail(err, RP_EINVAL, "an undo takes back at least one move");
    if (e->kind == RP_ENTRY_RESAMPLE && check_resample(m, e, err) < 0)
        return RP_EINVAL;
    int rc = rp__push_entry(m, *e, err);
    if (rc == RP_OK)
        rp__apply_entry(m, e, &m->state);
    return rc;
}

/* Append a history line's entry, the match started first. */
static int append_entry(record_reader *r, const char *key, const rp__entry *e, rp_error *err)
{
    if (start_match(r, err) < 0)
        return RP_EPARSE;
    rp_error inner;
    if (match_append(r->m, e, &inner) < 0)
        return fail_at(r, err, "[%s]: %s", key, inner.msg);
    return RP_OK;
}

/* [undo S N], [resample S SEED] or [resample S+T SEED], [resign S]: a history line. */
static int read_history_header(record_reader *r, const char *key, char *value, rp_error *err)
{
    rp__entry e = {0};
    char *save = NULL;
    char *seat_text = strtok_r(value, " ", &save), *arg = strtok_r(NULL, " ", &save),
         *extra = strtok_r(NULL, " ", &save);
    uint64_t seat = 0, n = 0;
    const bool resign = strcmp(key, "resign") == 0;
    if (!seat_text || !parse_seats(seat_text, strcmp(key, "resample") == 0, &seat, &e.seats) ||
        extra || (resign ? arg != NULL : !arg || !parse_u64(arg, &n)))
        return fail_at(r, err, "[%s %s] expected", key,
                       resign                     ? "SEAT"
                       : strcmp(key, "undo") == 0 ? "SEAT MOVES"
                                                  : "SEAT[+SEAT...] SEED");
    e.seat = (int)seat;
    e.value = n;
    e.kind = resign ? RP_ENTRY_END : strcmp(key, "undo") == 0 ? RP_ENTRY_UNDO : RP_ENTRY_RESAMPLE;
    if (resign) {
        e.reason = RP_END_RESIGNED;
        e.seats = 1u << seat;
    }
    return append_entry(r, key, &e, err);
}

/* [end WORD] or [end WORD S+T...]: an ending other than the rules' and its losers. */
static int read_end(record_reader *r, char *value, rp_error *err)
{
    rp__entry e = {.kind = RP_ENTRY_END};
    char *save = NULL;
    char *word = strtok_r(value, " ", &save), *seats = strtok_r(NULL, " ", &save),
         *extra = strtok_r(NULL, " ", &save);
    uint64_t first = 0;
    e.reason = word ? rp_end_from_word(word) : RP_END_NONE;
    if (e.reason == RP_END_NONE || extra || (seats && !parse_seats(seats, true, &first, &e.seats)))
        return fail_at(r, err,
                       "[end WORD] or [end WORD SEAT[+SEAT...]] expected, WORD one of resigned, "
                       "time, abandoned, agreed, adjudicated, decided");
    if (seats && !e.seats)
        e.seats = 1u << first; /* parse_seats gives a lone seat as the seat alone */
    e.seat = seats ? (int)first : -1;
    return append_entry(r, "end", &e, err);
}

static int read_header(record_reader *r, char *line, rp_error *err)
{
    size_t n = strlen(line);
    if (line[n - 1] != ']')
        return fail_at(r, err, "header line does not end with ']'");
    line[n - 1] = '\0';
    char *key = line + 1, *value = key;
    while (*value && !isspace((unsigned char)*value))
        value++;
    if (*value)
        *value++ = '\0';
    value = trim(value);
    if (strcmp(key, "undo") == 0 || strcmp(key, "resample") == 0 || strcmp(key, "resign") == 0)
        return read_history_header(r, key, value, err);
    if (strcmp(key, "end") == 0)
        return read_end(r, value, err);
    static const char *const headers[] = {"game",     "options", "seed", "seat",
                                          "position", "result",  "date", "event"};
    bool known = false;
    for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++)
        known = known || strcmp(key, headers[i]) == 0;
    if (!known)
        return fail_at(r, err, "unknown header [%s]", key);
    if (r->started)
        return fail_at(r, err, "header [%s] after the moves", key);
    if (strcmp(key, "game") == 0) {
        if (r->game)
            return fail_at(r, err, "a second [game] line");
        r->game = rp_game_find(value);
        if (!r->game)
            return fail_at(r, err, "unknown game '%s'", value);
        rp_config_default(r->game, &r->cfg);
        return RP_OK;
    }
    if (!r->game)
        return fail_at(r, err, "[%s] before [game]", key);
    if (strcmp(key, "options") == 0) {
        if (r->has_options)
            return fail_at(r, err, "a second [options] line");
        return read_options(r, value, err);
    }
    if (strcmp(key, "seed") == 0) {
        uint64_t seed;
        if (!parse_u64(value, &seed))
            return fail_at(r, err, "[seed N] expected, N a whole number");
        r->cfg.seed = seed;
        r->cfg.seed_given = true;
        return RP_OK;
    }
    if (strcmp(key, "seat") == 0)
        return read_seat(r, value, err);
    if (strcmp(key, "position") == 0) {
        if (r->position)
            return fail_at(r, err, "a second [position] line");
        r->position = strdup(value);
        r->position_line = r->line;
        return r->position ? RP_OK : rp_fail(err, RP_ENOMEM, "out of memory");
    }
    if (strcmp(key, "result") == 0) {
        if (r->result_line)
            return fail_at(r, err, "a second [result] line");
        snprintf(r->result, sizeof r->result, "%s", value);
        r->result_line = r->line;
        return RP_OK;
    }
    return RP_OK; /* [date], [event]: for people */
}

static int read_move(record_reader *r, const char *move, rp_error *err)
{
    if (start_match(r, err) < 0)
        return RP_EPARSE;
    rp_error inner;
    if (rp_match_play_text(r->m, move, &inner) < 0)
        return fail_at(r, err, "move '%.64s' (move %zu): %s", move, rp_match_moves(r->m) + 1,
                       inner.msg);
    return RP_OK;
}

/* After the last line: the replay must give the result the record states. */
static int check_result(record_reader *r, rp_error *err)
{
    if (!r->result_line)
        return RP_OK;
    char status[256];
    rp_match_status(r->m, status, sizeof status);
    if (strcmp(status, r->result) == 0)
        return RP_OK;
    return rp_fail(err, RP_EPARSE, "%s:%ld: [result %s] but the record replays to '%s'", r->name,
                   r->result_line, r->result, status);
}

#define MAX_RECORD_LINE (RP_STATE_TEXT + 64)

static int read_lines(record_reader *r, FILE *in, rp_error *err)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = RP_OK;
    while (rc == RP_OK && (len = getline(&buf, &cap, in)) >= 0) {
        r->line++;
        if (len > MAX_RECORD_LINE)
            rc = fail_at(r, err, "line too long (at most %d characters)", MAX_RECORD_LINE);
        else if (memchr(buf, '\0', (size_t)len))
            rc = fail_at(r, err, "a NUL byte in the line: not a record");
        if (rc < 0)
            break;
        char *line = trim(buf);
        if (!*line || *line == '#')
            continue;
        rc = *line == '[' ? read_header(r, line, err) : read_move(r, line, err);
    }
    free(buf);
    if (rc == RP_OK && ferror(in))
        rc = rp_fail(err, RP_EIO, "%s: read error", r->name);
    if (rc == RP_OK)
        rc = start_match(r, err);
    return rc < 0 ? rc : check_result(r, err);
}

rp_match *rp_record_read(FILE *in, const char *name, rp_error *err)
{
    record_reader r = {.name = name};
    int rc = read_lines(&r, in, err);
    free(r.position);
    if (rc < 0) {
        rp_match_free(r.m);
        return NULL;
    }
    return r.m;
}
