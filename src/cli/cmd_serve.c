/* cmd_serve.c — `ramparts serve` (the program ramparts-serve, serve_main.c): the online game
 * server (src/server/). Reads its options from the command line, else from RAMPARTS_*
 * environment variables, else defaults; listens on loopback unless told otherwise; SIGTERM or
 * Ctrl-C drains and stops. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ramparts/review.h"
#include "server/log.h"
#include "server/net.h"
#include "server/store_faults.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* "HOST:PORT" or "[V6]:PORT" into cfg; false with a message. */
static bool parse_listen(const char *text, rs_net_config *cfg)
{
    const char *colon;
    size_t host_len;
    const char *host = text;
    if (text[0] == '[') {
        const char *close = strchr(text, ']');
        if (!close || close[1] != ':')
            goto bad;
        host = text + 1;
        host_len = (size_t)(close - host);
        colon = close + 1;
    } else {
        colon = strrchr(text, ':');
        if (!colon)
            goto bad;
        host_len = (size_t)(colon - text);
    }
    long long port;
    char *end;
    port = strtoll(colon + 1, &end, 10);
    if (host_len == 0 || host_len >= sizeof cfg->host || !colon[1] || *end || port < 0 ||
        port > 65535)
        goto bad;
    snprintf(cfg->host, sizeof cfg->host, "%.*s", (int)host_len, host);
    if (strcmp(cfg->host, "localhost") == 0)
        snprintf(cfg->host, sizeof cfg->host, "127.0.0.1");
    cfg->port = (int)port;
    return true;
bad:
    rp_cli_usage_error("serve", "--listen %s: expected HOST:PORT, e.g. 127.0.0.1:8080", text);
    return false;
}

/* The default database path, creating its folder. */
static bool default_db(char *path, size_t size)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char dir[900];
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/ramparts", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.local/share/ramparts", home);
    else
        return false;
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(dir, 0700);
        *p = '/';
    }
    if (mkdir(dir, 0700) < 0 && errno != EEXIST)
        return false;
    snprintf(path, size, "%s/server.db", dir);
    return true;
}

typedef struct serve_options {
    rs_net_config net;
    rs_server_config core;
    char db[1024];
    char node[64];          /* --node */
    char review_budget[64]; /* --review-budget */
    char env_list[2048];    /* the values of an option's environment list (env_list) */
    bool quiet;
} serve_options;

static bool add_origin(serve_options *o, const char *origin)
{
    if (o->net.num_allow_origins == RS_NET_MAX_ORIGINS) {
        rp_cli_usage_error("serve", "at most %d --allow-origin values", RS_NET_MAX_ORIGINS);
        return false;
    }
    if (strncmp(origin, "http://", 7) != 0 && strncmp(origin, "https://", 8) != 0) {
        rp_cli_usage_error("serve",
                           "--allow-origin %s: expected http://HOST[:PORT] or "
                           "https://HOST[:PORT]",
                           origin);
        return false;
    }
    o->net.allow_origins[o->net.num_allow_origins++] = origin;
    return true;
}

static bool parse_event_loop(const char *text, rs_event_loop *out)
{
    static const struct {
        const char *name;
        rs_event_loop loop;
    } LOOPS[] = {{"auto", RS_LOOP_AUTO}, {"libuv", RS_LOOP_LIBUV}, {"poll", RS_LOOP_POLL}};
    for (size_t i = 0; i < sizeof LOOPS / sizeof LOOPS[0]; i++)
        if (strcmp(text, LOOPS[i].name) == 0) {
            *out = LOOPS[i].loop;
            return true;
        }
    rp_cli_usage_error("serve", "--event-loop %s: expected auto, libuv or poll", text);
    return false;
}

/* --store: sqlite:FILE or a PostgreSQL address, handed to rs_store_open as it is. */
static bool parse_store(const char *text, char *out, size_t size)
{
    const bool known = strncmp(text, "sqlite:", 7) == 0 || strncmp(text, "postgres://", 11) == 0 ||
                       strncmp(text, "postgresql://", 13) == 0;
    if (!known || !text[7] || strlen(text) >= size) {
        rp_cli_usage_error(
            "serve", "--store %s: expected sqlite:FILE, postgres://... or postgresql://...", text);
        return false;
    }
    snprintf(out, size, "%s", text);
    return true;
}

/* --trusted-proxy ADDR[,ADDR...]: literal addresses whose X-Forwarded-For names the client. */
static bool add_trusted_proxies(rs_net_config *net, const char *text)
{
    char list[1024];
    snprintf(list, sizeof list, "%s", text);
    for (char *item = list, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        if (net->num_trusted_proxies == RS_MAX_TRUSTED_PROXIES) {
            rp_cli_usage_error("serve", "--trusted-proxy: at most %d addresses",
                               RS_MAX_TRUSTED_PROXIES);
            return false;
        }
        if (strlen(text) >= sizeof list ||
            !rs_addr_parse(item, &net->trusted_proxies[net->num_trusted_proxies])) {
            rp_cli_usage_error("serve",
                               "--trusted-proxy %.200s: '%.100s' is not an IP address; expected "
                               "addresses separated by commas, e.g. 10.0.0.2,10.0.0.3 (no "
                               "names, ports or networks)",
                               text, item);
            return false;
        }
        net->num_trusted_proxies++;
    }
    return true;
}

/* ---- the options: one table read by one loop, for the command line, the environment and
 * --help ---- */

static bool set_listen(serve_options *o, const char *value)
{
    return parse_listen(value, &o->net);
}

static bool set_db(serve_options *o, const char *value)
{
    snprintf(o->db, sizeof o->db, "%s", value);
    return true;
}

static bool set_store(serve_options *o, const char *value)
{
    return parse_store(value, o->db, sizeof o->db);
}

static bool set_node(serve_options *o, const char *value)
{
    if (!*value || strlen(value) >= sizeof o->node || strpbrk(value, " \t\n")) {
        rp_cli_usage_error("serve", "--node %s: expected one word of at most %zu bytes", value,
                           sizeof o->node - 1);
        return false;
    }
    snprintf(o->node, sizeof o->node, "%s", value);
    o->core.node = o->node;
    return true;
}

/* Search parameters every game's review search takes (checked now: a bad one would make every
 * review fail later). */
static bool set_review_budget(serve_options *o, const char *value)
{
    const rp_review_opts opts = {.budget = value};
    rp_error err = {{0}};
    bool ok = strlen(value) < sizeof o->review_budget;
    for (int g = 0; g < rp_num_games && ok; g++)
        ok = rp_review_check(rp_games[g], &opts, &err) == RP_OK;
    if (!ok) {
        rp_cli_usage_error("serve", "--review-budget %s: %s", value,
                           err.msg[0] ? err.msg : "too long");
        return false;
    }
    snprintf(o->review_budget, sizeof o->review_budget, "%s", value);
    o->core.review_budget = o->review_budget;
    return true;
}

static bool set_trusted_proxies(serve_options *o, const char *value)
{
    return add_trusted_proxies(&o->net, value);
}

/* --sync full|normal: how the SQLite store syncs a commit (store_sqlite.h). */
static bool set_sync(serve_options *o, const char *value)
{
    if (strcmp(value, "full") == 0 || strcmp(value, "normal") == 0) {
        o->core.sync_normal = strcmp(value, "normal") == 0;
        return true;
    }
    rp_cli_usage_error("serve", "--sync %s: expected full or normal", value);
    return false;
}

static bool set_event_loop(serve_options *o, const char *value)
{
    return parse_event_loop(value, &o->net.event_loop);
}

/* How an option's value is read. */
typedef enum option_kind {
    OPT_INT,     /* a whole number in [min, max] into an int field */
    OPT_INT64,   /* the same into an int64_t field */
    OPT_SECONDS, /* seconds in [min, max], kept in an int64_t field as milliseconds */
    OPT_TEXT,    /* the text itself into a const char * field (argv and the environment
                    outlive the server) */
    OPT_FLAG,    /* no value: on when given (environment: set, and not 0) */
    OPT_OWN      /* read by its own function, with its own messages */
} option_kind;

typedef struct serve_option {
    const char *name; /* "--listen" */
    const char *arg;  /* the value's name in --help */
    const char *env;  /* the environment variable */
    option_kind kind;
    long long min, max; /* OPT_INT, OPT_INT64, OPT_SECONDS */
    size_t field;       /* OPT_INT, OPT_INT64, OPT_SECONDS, OPT_TEXT, OPT_FLAG: offset in
                           serve_options */
    bool (*read)(serve_options *o, const char *value); /* OPT_OWN */
    bool env_list;            /* the environment variable holds several values, comma-separated */
    const char *help;         /* what it does */
    const char *default_text; /* "default ..." in --help, or NULL */
} serve_option;

#define FIELD(member) offsetof(serve_options, member)

/* In the order the environment is read: RAMPARTS_STORE after RAMPARTS_DB, so it wins. */
static const serve_option OPTIONS[] = {
    {.name = "--listen",
     .arg = "HOST:PORT",
     .env = "RAMPARTS_LISTEN",
     .kind = OPT_OWN,
     .read = set_listen,
     .help = "where to listen",
     .default_text = "default 127.0.0.1:8080; port 0 picks a free one; 0.0.0.0 listens everywhere"},
    {.name = "--db",
     .arg = "FILE",
     .env = "RAMPARTS_DB",
     .kind = OPT_OWN,
     .read = set_db,
     .help = "the database",
     .default_text =
         "default $XDG_DATA_HOME/ramparts/server.db, or ~/.local/share/ramparts/server.db"},
    {.name = "--store",
     .arg = "ADDRESS",
     .env = "RAMPARTS_STORE",
     .kind = OPT_OWN,
     .read = set_store,
     .help = "the store instead: sqlite:FILE, or a PostgreSQL server "
             "postgres://USER@HOST:PORT/DB (or its key=value form after postgres://?...; "
             "docs/cluster.md)"},
    {.name = "--sync",
     .arg = "MODE",
     .env = "RAMPARTS_SYNC",
     .kind = OPT_OWN,
     .read = set_sync,
     .help = "SQLite only: full syncs every commit, so an acknowledged move survives a power "
             "cut; normal syncs at checkpoints: it survives the server being killed, but a "
             "power cut may lose the last moves (docs/server.md)",
     .default_text = "default full"},
    {.name = "--node",
     .arg = "NAME",
     .env = "RAMPARTS_NODE",
     .kind = OPT_OWN,
     .read = set_node,
     .help = "this server's name among several on one PostgreSQL database",
     .default_text = "default: host name and process id"},
    {.name = "--lease",
     .arg = "SECONDS",
     .env = "RAMPARTS_LEASE",
     .kind = OPT_SECONDS,
     .min = 2,
     .max = 600,
     .field = FIELD(core.lease_ms),
     .help = "how long a game's lease lasts unrenewed on a cluster: a server gone this long "
             "has its games' clocks and AI seats taken over",
     .default_text = "default 3"},
    {.name = "--tls-cert",
     .arg = "FILE",
     .env = "RAMPARTS_TLS_CERT",
     .kind = OPT_TEXT,
     .field = FIELD(net.tls_cert),
     .help = "serve HTTPS and WSS with this certificate"},
    {.name = "--tls-key",
     .arg = "FILE",
     .env = "RAMPARTS_TLS_KEY",
     .kind = OPT_TEXT,
     .field = FIELD(net.tls_key),
     .help = "and this private key"},
#ifdef RS_TEST_CLOCK
    {.name = "--test-clock",
     .arg = "FILE",
     .env = "RAMPARTS_TEST_CLOCK",
     .kind = OPT_TEXT,
     .field = FIELD(net.test_clock),
     .help = "tests only (not in release builds): time is real time plus the milliseconds "
             "written in FILE, so a test can let days pass"},
#endif
    {.name = "--allow-origin",
     .arg = "URL",
     .env = "RAMPARTS_ALLOW_ORIGIN",
     .kind = OPT_OWN,
     .read = add_origin,
     .env_list = true,
     .help = "a further web origin allowed to open the WebSocket, e.g. "
             "https://games.example.org (repeatable)"},
    {.name = "--ai-threads",
     .arg = "N",
     .env = "RAMPARTS_AI_THREADS",
     .kind = OPT_INT,
     .min = 1,
     .max = 16,
     .field = FIELD(core.ai_threads),
     .help = "threads for AI players",
     .default_text = "default: the cores less one, at least 1"},
    {.name = "--ai-hard-ms",
     .arg = "MS",
     .env = "RAMPARTS_AI_HARD_MS",
     .kind = OPT_INT64,
     .min = 0,
     .max = 10000,
     .field = FIELD(core.ai_hard_ms),
     .help = "the hard AI thinks MS milliseconds a move against a person in an untimed game "
             "instead of its iterations",
     .default_text = "default 0: its iterations"},
    {.name = "--review-budget",
     .arg = "PARAMS",
     .env = "RAMPARTS_REVIEW_BUDGET",
     .kind = OPT_OWN,
     .read = set_review_budget,
     .help = "search parameters of each decision of a review, after the hard level's (e.g. "
             "iters=2000)",
     .default_text = "default: the review's own, docs/review.md"},
    {.name = "--grace",
     .arg = "SECONDS",
     .env = "RAMPARTS_GRACE",
     .kind = OPT_SECONDS,
     .min = 1,
     .max = 86400,
     .field = FIELD(core.grace_ms),
     .help = "how long a player may be gone before the opponent can claim the game",
     .default_text = "default 60"},
    {.name = "--expire",
     .arg = "SECONDS",
     .env = "RAMPARTS_EXPIRE",
     .kind = OPT_SECONDS,
     .min = 0,
     .max = 30 * 86400,
     .field = FIELD(core.expire_ms),
     .help = "open games whose creator and players are gone, and games against the AI nobody "
             "watches, end after this long",
     .default_text = "default 1800; 0: never"},
    {.name = "--challenge-expiry",
     .arg = "SECONDS",
     .env = "RAMPARTS_CHALLENGE_EXPIRY",
     .kind = OPT_SECONDS,
     .min = 1,
     .max = 30 * 86400,
     .field = FIELD(core.challenge_expiry_ms),
     .help = "a challenge not answered expires after this long, whatever its clock",
     .default_text = "default: 10 minutes, 3 days with days per move"},
    {.name = "--rate",
     .arg = "N",
     .env = "RAMPARTS_RATE",
     .kind = OPT_INT,
     .min = 10,
     .max = 100000,
     .field = FIELD(core.rate_messages),
     .help = "messages each connection may send per 20 s",
     .default_text = "default 100"},
    {.name = "--max-ai-games",
     .arg = "N",
     .env = "RAMPARTS_MAX_AI_GAMES",
     .kind = OPT_INT,
     .min = 1,
     .max = 100000,
     .field = FIELD(core.max_ai_games),
     .help = "unfinished games against the computer one player may have created",
     .default_text = "default 10"},
    {.name = "--max-ai-games-per-ip",
     .arg = "N",
     .env = "RAMPARTS_MAX_AI_GAMES_PER_IP",
     .kind = OPT_INT,
     .min = 1,
     .max = 1000000,
     .field = FIELD(core.max_ai_games_per_ip),
     .help = "unfinished games against the computer created from one address (an IPv6 "
             "client's /64)",
     .default_text = "default 50"},
    {.name = "--max-open-games",
     .arg = "N",
     .env = "RAMPARTS_MAX_OPEN_GAMES",
     .kind = OPT_INT,
     .min = 1,
     .max = 100000,
     .field = FIELD(core.max_open_games),
     .help = "games waiting for players one player may have created",
     .default_text = "default 10"},
    {.name = "--max-open-games-per-ip",
     .arg = "N",
     .env = "RAMPARTS_MAX_OPEN_GAMES_PER_IP",
     .kind = OPT_INT,
     .min = 1,
     .max = 1000000,
     .field = FIELD(core.max_open_games_per_ip),
     .help = "games waiting for players created from one address (an IPv6 client's /64)",
     .default_text = "default 20"},
    {.name = "--max-seeks",
     .arg = "N",
     .env = "RAMPARTS_MAX_SEEKS",
     .kind = OPT_INT,
     .min = 1,
     .max = 1000,
     .field = FIELD(core.max_seeks),
     .help = "seeks (Play now) one player may have waiting",
     .default_text = "default 3"},
    {.name = "--max-seeks-per-ip",
     .arg = "N",
     .env = "RAMPARTS_MAX_SEEKS_PER_IP",
     .kind = OPT_INT,
     .min = 1,
     .max = 1000000,
     .field = FIELD(core.max_seeks_per_ip),
     .help = "seeks waiting of the players connected from one address",
     .default_text = "default 12"},
    {.name = "--max-challenges",
     .arg = "N",
     .env = "RAMPARTS_MAX_CHALLENGES",
     .kind = OPT_INT,
     .min = 1,
     .max = 1000,
     .field = FIELD(core.max_challenges),
     .help = "challenges one player may have sent waiting",
     .default_text = "default 5"},
    {.name = "--max-challenges-per-ip",
     .arg = "N",
     .env = "RAMPARTS_MAX_CHALLENGES_PER_IP",
     .kind = OPT_INT,
     .min = 1,
     .max = 1000000,
     .field = FIELD(core.max_challenges_per_ip),
     .help = "challenges sent waiting of the players connected from one address",
     .default_text = "default 20"},
    {.name = "--hash-threads",
     .arg = "N",
     .env = "RAMPARTS_HASH_THREADS",
     .kind = OPT_INT,
     .min = 1,
     .max = 8,
     .field = FIELD(core.hash_threads),
     .help = "threads hashing passwords at once (argon2id: 64 MiB each while it runs)",
     .default_text = "default 2"},
    {.name = "--hash-per-ip",
     .arg = "N",
     .env = "RAMPARTS_HASH_PER_IP",
     .kind = OPT_INT,
     .min = 1,
     .max = 1000000,
     .field = FIELD(core.hash_per_ip),
     .help = "password checks (register, login, password) one address may have waiting or "
             "running; more are refused as busy",
     .default_text = "default 4"},
    {.name = "--login-failures-per-ip",
     .arg = "N",
     .env = "RAMPARTS_LOGIN_FAILURES_PER_IP",
     .kind = OPT_INT,
     .min = 0,
     .max = 1000000,
     .field = FIELD(core.login_failures_per_ip),
     .help = "failed logins one address may make per 10 minutes before its logins wait "
             "(0: no limit)",
     .default_text = "default 30"},
    {.name = "--login-failures-per-account",
     .arg = "N",
     .env = "RAMPARTS_LOGIN_FAILURES_PER_ACCOUNT",
     .kind = OPT_INT,
     .min = 0,
     .max = 1000000,
     .field = FIELD(core.login_failures_per_account),
     .help = "failed logins to one account name per 10 minutes before its logins wait "
             "(0: no limit)",
     .default_text = "default 10"},
    {.name = "--guests-per-ip",
     .arg = "N",
     .env = "RAMPARTS_GUESTS_PER_IP",
     .kind = OPT_INT,
     .min = 0,
     .max = 10000000,
     .field = FIELD(core.guests_per_ip),
     .help = "new guests one address may make per hour (0: no limit)",
     .default_text = "default 100"},
    {.name = "--http-rate",
     .arg = "N",
     .env = "RAMPARTS_HTTP_RATE",
     .kind = OPT_INT,
     .min = 0,
     .max = 1000000,
     .field = FIELD(net.http_rate),
     .help = "HTTP requests one address may make per 20 s (/healthz aside; beyond: 429 with "
             "Retry-After)",
     .default_text = "default 600; 0: no limit"},
    {.name = "--max-per-ip",
     .arg = "N",
     .env = "RAMPARTS_MAX_PER_IP",
     .kind = OPT_INT,
     .min = 1,
     .max = 100000,
     .field = FIELD(net.max_connections_per_ip),
     .help = "WebSocket connections from one address",
     .default_text = "default 64"},
    {.name = "--trusted-proxy",
     .arg = "ADDR[,ADDR...]",
     .env = "RAMPARTS_TRUSTED_PROXY",
     .kind = OPT_OWN,
     .read = set_trusted_proxies,
     .help = "reverse proxies (HAProxy) trusted to name the client in X-Forwarded-For: a "
             "WebSocket from one of these addresses counts (--max-per-ip) and is logged under "
             "the header's last address; from any other address the header is ignored "
             "(repeatable)",
     .default_text = "default: none"},
    {.name = "--keepalive",
     .arg = "SECONDS",
     .env = "RAMPARTS_KEEPALIVE",
     .kind = OPT_INT,
     .min = 1,
     .max = 3600,
     .field = FIELD(net.keepalive_s),
     .help = "a connection quiet this long is pinged, and dropped if it stays quiet twice as "
             "long",
     .default_text = "default 15: pinged after 15 s, dropped after 30 s"},
    {.name = "--event-loop",
     .arg = "KIND",
     .env = "RAMPARTS_EVENT_LOOP",
     .kind = OPT_OWN,
     .read = set_event_loop,
     .help = "auto, libuv or poll",
     .default_text = "default auto: libuv's epoll loop, or libwebsockets' poll(2) loop if its "
                     "libuv plugin is not installed; poll slows with many sockets"},
    {.name = "--quiet",
     .env = "RAMPARTS_QUIET",
     .kind = OPT_FLAG,
     .field = FIELD(quiet),
     .help = "no log lines on stderr"},
};

#define NUM_OPTIONS (sizeof OPTIONS / sizeof OPTIONS[0])

static const serve_option *find_option(const char *name)
{
    for (size_t i = 0; i < NUM_OPTIONS; i++)
        if (strcmp(OPTIONS[i].name, name) == 0)
            return &OPTIONS[i];
    return NULL;
}

/* Set one option that takes a value (from argv or the environment); false with a message. */
static bool apply(serve_options *o, const serve_option *opt, const char *value)
{
    void *field = (char *)o + opt->field;
    long long n;
    switch (opt->kind) {
    case OPT_OWN:
        return opt->read(o, value);
    case OPT_TEXT:
        *(const char **)field = value;
        return true;
    case OPT_FLAG: /* takes no value: never here */
        return false;
    case OPT_INT:
    case OPT_INT64:
    case OPT_SECONDS:
        break;
    }
    if (!rp_cli_number("serve", opt->name, value, opt->min, opt->max, &n))
        return false;
    if (opt->kind == OPT_INT)
        *(int *)field = (int)n;
    else
        *(int64_t *)field = opt->kind == OPT_SECONDS ? n * 1000 : n;
    return true;
}

/* Each variable of the table that is set and not empty, in the table's order. */
static bool read_environment(serve_options *o)
{
    for (size_t i = 0; i < NUM_OPTIONS; i++) {
        const serve_option *opt = &OPTIONS[i];
        const char *v = getenv(opt->env);
        if (!v || !*v)
            continue;
        if (opt->kind == OPT_FLAG) {
            *(bool *)((char *)o + opt->field) = strcmp(v, "0") != 0;
        } else if (!opt->env_list) {
            if (!apply(o, opt, v))
                return false;
        } else { /* split in a copy that lives as long as o (the values are kept as pointers) */
            snprintf(o->env_list, sizeof o->env_list, "%s", v);
            char *save = NULL;
            for (char *tok = strtok_r(o->env_list, ",", &save); tok;
                 tok = strtok_r(NULL, ",", &save))
                if (!apply(o, opt, tok))
                    return false;
        }
    }
    return true;
}

static bool read_arguments(serve_options *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const serve_option *opt = find_option(argv[i]);
        if (opt && opt->kind == OPT_FLAG) {
            *(bool *)((char *)o + opt->field) = true;
            continue;
        }
        const char *v = rp_cli_value("serve", argc, argv, &i);
        if (!v)
            return false;
        if (!opt)
            return rp_cli_usage_error("serve", "unknown option '%s'", argv[i - 1]), false;
        if (!apply(o, opt, v))
            return false;
    }
    return true;
}

#define HELP_WIDTH 88
#define HELP_INDENT 23

/* Words of text from HELP_INDENT on, wrapped at HELP_WIDTH under HELP_INDENT. */
static void print_wrapped(FILE *out, const char *text)
{
    int column = HELP_INDENT;
    for (const char *p = text + strspn(text, " "); *p; p += strspn(p, " ")) {
        const int len = (int)strcspn(p, " ");
        if (column > HELP_INDENT && column + 1 + len > HELP_WIDTH) {
            fprintf(out, "\n%*s", HELP_INDENT, "");
            column = HELP_INDENT;
        } else if (column > HELP_INDENT) {
            fputc(' ', out);
            column++;
        }
        fprintf(out, "%.*s", len, p);
        column += len;
        p += len;
    }
    fputc('\n', out);
}

static void print_option_help(FILE *out, const serve_option *opt)
{
    char head[64], text[512];
    snprintf(head, sizeof head, "  %s%s%s", opt->name, opt->arg ? " " : "",
             opt->arg ? opt->arg : "");
    int column = fprintf(out, "%s", head);
    if (column >= HELP_INDENT - 1) {
        fprintf(out, "\n");
        column = 0;
    }
    fprintf(out, "%*s", HELP_INDENT - column, "");
    char range[64] = "";
    if (opt->kind == OPT_INT || opt->kind == OPT_INT64 || opt->kind == OPT_SECONDS)
        snprintf(range, sizeof range, ", %lld..%lld", opt->min, opt->max);
    const char *env_form = opt->env_list ? ", comma-separated" : "";
    if (opt->kind == OPT_FLAG)
        env_form = "=1";
    char preset[256] = "";
    if (opt->default_text)
        snprintf(preset, sizeof preset, " (%s)", opt->default_text);
    snprintf(text, sizeof text, "%s%s [%s%s]%s", opt->help, range, opt->env, env_form, preset);
    print_wrapped(out, text);
}

static void serve_help(FILE *out)
{
    fprintf(out,
            "usage: ramparts serve [--listen HOST:PORT] [--db FILE | --store ADDRESS] [options]\n\n"
            "Runs the online server: the browser client at /, the JSON protocol over the\n"
            "WebSocket at /ws (docs/server-protocol.md), a read-only HTTP API under /api/v1/\n"
            "and /healthz. Games, moves, accounts and ratings are stored in an SQLite file or a\n"
            "PostgreSQL database (--store); every game in progress resumes after a restart\n"
            "(docs/server.md, docs/cluster.md).\n\n"
            "Options (each also from the environment variable in brackets):\n");
    for (size_t i = 0; i < NUM_OPTIONS; i++)
        print_option_help(out, &OPTIONS[i]);
    fprintf(out, "\nIt prints 'listening on URL' when ready. Exit status 0 after a clean stop.\n");
}

int rp_cmd_serve(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        serve_help(stdout);
        return RP_EXIT_OK;
    }
    static serve_options o;
    memset(&o, 0, sizeof o);
    rs_server_config_default(&o.core);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.core.ai_threads = cores > 2 ? (int)cores - 1 : 1;
    snprintf(o.net.host, sizeof o.net.host, "127.0.0.1");
    o.net.port = 8080;
    o.net.max_connections_per_ip = 64;
    o.net.http_rate = 600;
    o.net.keepalive_s = RS_NET_KEEPALIVE_DEFAULT_S;
    if (!read_environment(&o))
        return RP_EXIT_USAGE;
    if (!read_arguments(&o, argc, argv))
        return RP_EXIT_USAGE;
    if (!o.net.tls_cert != !o.net.tls_key)
        return rp_cli_usage_error("serve", "--tls-cert and --tls-key go together");
    if (!o.db[0] && !default_db(o.db, sizeof o.db)) {
        fprintf(stderr, "ramparts serve: no $XDG_DATA_HOME or $HOME for the database: use "
                        "--db FILE\n");
        return RP_EXIT_FAIL;
    }
    o.core.db_path = o.db;
    rs_log_quiet(o.quiet);
    /* Test builds: tests/load/test_disk_faults.py turns the database read-only under a
     * running server with this (store_faults.c). */
    const char *readonly_flag = getenv("RAMPARTS_TEST_STORE_READONLY");
    if (readonly_flag && *readonly_flag) {
        char err[200];
        if (!rs_store_faults_install(readonly_flag, err, sizeof err))
            return rp_cli_usage_error("serve", "%s", err);
        rs_log("test build: database writes fail while %s exists", readonly_flag);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: the service loop wakes at once */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* A file-size limit reached (RLIMIT_FSIZE) is a full disk: the write fails with EFBIG, the
     * commit fails and is undone (docs/server.md), instead of the signal killing the server. */
    signal(SIGXFSZ, SIG_IGN);
    return rs_net_run(&o.net, &o.core, &stop_requested) == 0 ? RP_EXIT_OK : RP_EXIT_FAIL;
}
