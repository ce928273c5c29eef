/* record.c — game records: a plain-text file of [header] lines and one move a line, which
 * `ramparts play` writes and `ramparts replay` reads back and verifies move by move. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/engine.h"

/* Remove the "seed=N" word from an options text: records give the seed its own line. */
static void drop_seed(char *options)
{
    char *seed = options;
    while ((seed = strstr(seed, "seed=")) && seed > options && seed[-1] != ' ')
        seed++;
    if (!seed)
        return;
    char *end = strchr(seed, ' ');
    if (end)
        memmove(seed, end + 1, strlen(end + 1) + 1);
    else
        *(seed > options ? seed - 1 : seed) = '\0';
}

int rp_record_write(const rp_match *m, FILE *out)
{
    const rp_game *game = m->game;
    char options[1024];
    rp_config_to_text(game, &m->config, options, sizeof options);
    drop_seed(options);
    fprintf(out, "# Ramparts game record\n[game %s]\n[seed %llu]\n[options %s]\n", game->id,
            (unsigned long long)m->config.seed, options);
    for (int p = 0; p < game->num_players(&m->state); p++)
        if (m->seats[p][0])
            fprintf(out, "[seat %d %s]\n", p, m->seats[p]);
    if (m->from_position)
        fprintf(out, "[position %s]\n", m->position);
    rp_state st;
    rp_state_copy(game, &st, &m->start);
    for (size_t i = 0; i < m->num_moves; i++) {
        char text[RP_ACTION_TEXT];
        if (game->action_to_text(&st, m->moves[i], text, sizeof text) < 0)
            return RP_EIO;
        fprintf(out, "%s\n", text);
        game->apply(&st, m->moves[i]);
    }
    char status[256];
    rp_match_status(m, status, sizeof status);
    fprintf(out, "# result: %s\n", status);
    return ferror(out) ? RP_EIO : RP_OK;
}

/* Strip trailing newline and surrounding blanks in place; returns the start. */
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
    bool started;
    const char *name;
    long line;
} record_reader;

/* The match starts at the first move (or at the end): the header is complete by then. */
static int start_match(record_reader *r, rp_error *err)
{
    if (r->started)
        return RP_OK;
    if (!r->game)
        return rp_fail(err, RP_EPARSE, "%s:%ld: no [game ...] line before the moves", r->name,
                       r->line);
    rp_error inner;
    if (rp_match_new(r->m, r->game, &r->cfg, &inner) < 0)
        return rp_fail(err, RP_EPARSE, "%s:%ld: %s", r->name, r->line, inner.msg);
    r->started = true;
    return RP_OK;
}

static int read_options(record_reader *r, char *value, rp_error *err)
{
    if (!r->game)
        return rp_fail(err, RP_EPARSE, "%s:%ld: options before [game]", r->name, r->line);
    for (char *tok = strtok(value, " \t"); tok; tok = strtok(NULL, " \t")) {
        rp_error inner;
        if (rp_config_set(r->game, &r->cfg, tok, &inner) < 0)
            return rp_fail(err, RP_EPARSE, "%s:%ld: %s", r->name, r->line, inner.msg);
    }
    return RP_OK;
}

static int read_seat(record_reader *r, const char *value, rp_error *err)
{
    int seat = -1, used = 0;
    if (sscanf(value, "%d %n", &seat, &used) != 1 || seat < 0 || seat >= RP_MAX_PLAYERS ||
        !value[used])
        return rp_fail(err, RP_EPARSE, "%s:%ld: [seat N NAME] expected", r->name, r->line);
    if (start_match(r, err) < 0)
        return RP_EPARSE;
    snprintf(r->m->seats[seat], sizeof r->m->seats[seat], "%s", value + used);
    return RP_OK;
}

static int read_header(record_reader *r, char *line, rp_error *err)
{
    size_t n = strlen(line);
    if (line[n - 1] != ']')
        return rp_fail(err, RP_EPARSE, "%s:%ld: header line does not end with ']'", r->name,
                       r->line);
    line[n - 1] = '\0';
    char *key = line + 1, *value = key;
    while (*value && !isspace((unsigned char)*value))
        value++;
    if (*value)
        *value++ = '\0';
    value = trim(value);
    if (r->started && r->m->num_moves > 0)
        return rp_fail(err, RP_EPARSE, "%s:%ld: header [%s] after the moves", r->name, r->line,
                       key);
    if (strcmp(key, "game") == 0) {
        if (r->game)
            return rp_fail(err, RP_EPARSE, "%s:%ld: a second [game] line", r->name, r->line);
        r->game = rp_game_find(value);
        if (!r->game)
            return rp_fail(err, RP_EPARSE, "%s:%ld: unknown game '%s'", r->name, r->line, value);
        rp_config_default(r->game, &r->cfg);
        return RP_OK;
    }
    if (r->started && (strcmp(key, "options") == 0 || strcmp(key, "seed") == 0))
        return rp_fail(err, RP_EPARSE, "%s:%ld: [%s] after [seat] or [position]", r->name,
                       r->line, key);
    if (strcmp(key, "options") == 0)
        return read_options(r, value, err);
    if (strcmp(key, "seed") == 0) {
        char kv[64];
        snprintf(kv, sizeof kv, "seed=%.40s", value);
        return read_options(r, kv, err);
    }
    if (strcmp(key, "seat") == 0)
        return read_seat(r, value, err);
    if (strcmp(key, "position") == 0) {
        if (start_match(r, err) < 0)
            return RP_EPARSE;
        rp_error inner;
        if (rp_match_load(r->m, value, &inner) < 0)
            return rp_fail(err, RP_EPARSE, "%s:%ld: bad position: %s", r->name, r->line,
                           inner.msg);
        return RP_OK;
    }
    if (strcmp(key, "result") == 0 || strcmp(key, "date") == 0 || strcmp(key, "event") == 0)
        return RP_OK;
    return rp_fail(err, RP_EPARSE, "%s:%ld: unknown header [%s]", r->name, r->line, key);
}

static int read_move(record_reader *r, const char *move, rp_error *err)
{
    if (start_match(r, err) < 0)
        return RP_EPARSE;
    rp_error inner;
    if (rp_match_play_text(r->m, move, &inner) < 0)
        return rp_fail(err, RP_EILLEGAL, "%s:%ld: move '%s' (move %zu): %s", r->name, r->line,
                       move, r->m->num_moves + 1, inner.msg);
    return RP_OK;
}

int rp_record_read(rp_match *m, FILE *in, const char *name, rp_error *err)
{
    record_reader r = {.m = m, .name = name};
    memset(m, 0, sizeof *m);
    char buf[RP_STATE_TEXT + 64];
    int rc = RP_OK;
    while (rc == RP_OK && fgets(buf, sizeof buf, in)) {
        r.line++;
        if (!strchr(buf, '\n') && !feof(in)) {
            rc = rp_fail(err, RP_EPARSE, "%s:%ld: line too long", name, r.line);
            break;
        }
        char *line = trim(buf);
        if (!*line || *line == '#')
            continue;
        rc = *line == '[' ? read_header(&r, line, err) : read_move(&r, line, err);
    }
    if (rc == RP_OK && ferror(in))
        rc = rp_fail(err, RP_EIO, "%s: read error", name);
    if (rc == RP_OK)
        rc = start_match(&r, err);
    if (rc < 0 && r.started)
        rp_match_free(m);
    return rc;
}
