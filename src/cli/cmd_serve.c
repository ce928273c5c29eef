/* cmd_serve.c — `ramparts serve` (the program ramparts-serve, serve_main.c): the online game
 * server (src/server/). Reads its options from the command line, else from RAMPARTS_*
 * environment variables, else defaults; listens on loopback unless told otherwise; SIGTERM or
 * Ctrl-C drains and stops. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "server/log.h"
#include "server/net.h"
#include "server/store_faults.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void serve_help(void)
{
    printf(
        "usage: ramparts serve [--listen HOST:PORT] [--db FILE | --store ADDRESS] [options]\n\n"
        "Runs the online server: the browser client at /, the JSON protocol over the\n"
        "WebSocket at /ws (docs/server-protocol.md), a read-only HTTP API under /api/v1/\n"
        "and /healthz. Games, moves, accounts and ratings are stored in an SQLite file or a\n"
        "PostgreSQL database (--store); every game in progress resumes after a restart\n"
        "(docs/server.md, docs/cluster.md).\n\n"
        "Options (each also from the environment variable in brackets):\n"
        "  --listen HOST:PORT   where to listen [RAMPARTS_LISTEN] (default 127.0.0.1:8080;\n"
        "                       port 0 picks a free one; 0.0.0.0 listens everywhere)\n"
        "  --db FILE            the database [RAMPARTS_DB] (default\n"
        "                       $XDG_DATA_HOME/ramparts/server.db, or\n"
        "                       ~/.local/share/ramparts/server.db)\n"
        "  --store ADDRESS      the store instead [RAMPARTS_STORE]: sqlite:FILE, or a\n"
        "                       PostgreSQL server postgres://USER@HOST:PORT/DB (or its\n"
        "                       key=value form after postgres://?...; docs/cluster.md)\n"
        "  --node NAME          this server's name among several on one PostgreSQL\n"
        "                       database [RAMPARTS_NODE] (default: host name and process id)\n"
        "  --lease SECONDS      how long a game's lease lasts unrenewed on a cluster: a\n"
        "                       server gone this long has its games' clocks and AI seats\n"
        "                       taken over [RAMPARTS_LEASE] (default 3)\n"
        "  --tls-cert FILE      serve HTTPS and WSS with this certificate [RAMPARTS_TLS_CERT]\n"
        "  --tls-key FILE       and this private key [RAMPARTS_TLS_KEY]\n"
        "  --allow-origin URL   a further web origin allowed to open the WebSocket, e.g.\n"
        "                       https://games.example.org (repeatable)\n"
        "                       [RAMPARTS_ALLOW_ORIGIN, comma-separated]\n"
        "  --ai-threads N       threads for AI players [RAMPARTS_AI_THREADS] (default: the\n"
        "                       cores less one, at least 1)\n"
        "  --ai-hard-ms MS      the hard AI thinks MS milliseconds a move against a person in\n"
        "                       an untimed game instead of its iterations, 0 to 10000\n"
        "                       [RAMPARTS_AI_HARD_MS] (default 0: its iterations)\n"
        "  --grace SECONDS      how long a player may be gone before the opponent can claim\n"
        "                       the game [RAMPARTS_GRACE] (default 60)\n"
        "  --expire SECONDS     open games whose creator and players are gone, and games\n"
        "                       against the AI nobody watches, end after this long\n"
        "                       [RAMPARTS_EXPIRE] (default 1800; 0: never)\n"
        "  --rate N             messages each connection may send per 20 s [RAMPARTS_RATE]\n"
        "                       (default 100)\n"
        "  --max-per-ip N       WebSocket connections from one address\n"
        "                       [RAMPARTS_MAX_PER_IP] (default 64)\n"
        "  --trusted-proxy ADDR[,ADDR...]\n"
        "                       reverse proxies (HAProxy) trusted to name the client in\n"
        "                       X-Forwarded-For: a WebSocket from one of these addresses\n"
        "                       counts (--max-per-ip) and is logged under the header's last\n"
        "                       address; from any other address the header is ignored\n"
        "                       (repeatable) [RAMPARTS_TRUSTED_PROXY] (default: none)\n"
        "  --keepalive SECONDS  a connection quiet this long is pinged, and dropped if it stays\n"
        "                       quiet twice as long, 1 to 3600 [RAMPARTS_KEEPALIVE]\n"
        "                       (default 15: pinged after 15 s, dropped after 30 s)\n"
        "  --event-loop KIND    auto, libuv or poll [RAMPARTS_EVENT_LOOP] (default auto:\n"
        "                       libuv's epoll loop, or libwebsockets' poll(2) loop if its\n"
        "                       libuv plugin is not installed; poll slows with many sockets)\n"
        "  --quiet              no log lines on stderr [RAMPARTS_QUIET=1]\n\n"
        "It prints 'listening on URL' when ready. Exit status 0 after a clean stop.\n");
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

static bool number(const char *option, const char *text, long long min, long long max,
                   long long *out)
{
    return rp_cli_number("serve", option, text, min, max, out);
}

typedef struct serve_options {
    rs_net_config net;
    rs_server_config core;
    char db[1024];
    char node[64]; /* --node */
    char origins_env[2048];
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

/* One option with its value (from argv or the environment). */
static bool apply(serve_options *o, const char *option, const char *value)
{
    long long n;
    if (strcmp(option, "--listen") == 0)
        return parse_listen(value, &o->net);
    if (strcmp(option, "--db") == 0) {
        snprintf(o->db, sizeof o->db, "%s", value);
        return true;
    }
    if (strcmp(option, "--store") == 0)
        return parse_store(value, o->db, sizeof o->db);
    if (strcmp(option, "--node") == 0) {
        if (!*value || strlen(value) >= sizeof o->node || strpbrk(value, " \t\n")) {
            rp_cli_usage_error("serve", "--node %s: expected one word of at most %zu bytes", value,
                               sizeof o->node - 1);
            return false;
        }
        snprintf(o->node, sizeof o->node, "%s", value);
        o->core.node = o->node;
        return true;
    }
    if (strcmp(option, "--lease") == 0) {
        if (!number(option, value, 2, 600, &n))
            return false;
        o->core.lease_ms = n * 1000;
        return true;
    }
    if (strcmp(option, "--tls-cert") == 0) {
        o->net.tls_cert = value;
        return true;
    }
    if (strcmp(option, "--tls-key") == 0) {
        o->net.tls_key = value;
        return true;
    }
    if (strcmp(option, "--allow-origin") == 0)
        return add_origin(o, value);
    if (strcmp(option, "--trusted-proxy") == 0)
        return add_trusted_proxies(&o->net, value);
    if (strcmp(option, "--ai-threads") == 0) {
        if (!number(option, value, 1, 16, &n))
            return false;
        o->core.ai_threads = (int)n;
        return true;
    }
    if (strcmp(option, "--ai-hard-ms") == 0) {
        if (!number(option, value, 0, 10000, &n))
            return false;
        o->core.ai_hard_ms = n;
        return true;
    }
    if (strcmp(option, "--grace") == 0) {
        if (!number(option, value, 1, 86400, &n))
            return false;
        o->core.grace_ms = n * 1000;
        return true;
    }
    if (strcmp(option, "--expire") == 0) {
        if (!number(option, value, 0, 30 * 86400, &n))
            return false;
        o->core.expire_ms = n * 1000;
        return true;
    }
    if (strcmp(option, "--rate") == 0) {
        if (!number(option, value, 10, 100000, &n))
            return false;
        o->core.rate_messages = (int)n;
        return true;
    }
    if (strcmp(option, "--max-per-ip") == 0) {
        if (!number(option, value, 1, 100000, &n))
            return false;
        o->net.max_connections_per_ip = (int)n;
        return true;
    }
    if (strcmp(option, "--keepalive") == 0) {
        if (!number(option, value, 1, 3600, &n))
            return false;
        o->net.keepalive_s = (int)n;
        return true;
    }
    if (strcmp(option, "--event-loop") == 0)
        return parse_event_loop(value, &o->net.event_loop);
    return rp_cli_usage_error("serve", "unknown option '%s'", option), false;
}

static const struct {
    const char *env, *option;
} ENV_OPTIONS[] = {
    {"RAMPARTS_LISTEN", "--listen"},
    {"RAMPARTS_DB", "--db"},
    {"RAMPARTS_STORE", "--store"}, /* read after RAMPARTS_DB: it wins */
    {"RAMPARTS_NODE", "--node"},
    {"RAMPARTS_LEASE", "--lease"},
    {"RAMPARTS_TLS_CERT", "--tls-cert"},
    {"RAMPARTS_TLS_KEY", "--tls-key"},
    {"RAMPARTS_AI_THREADS", "--ai-threads"},
    {"RAMPARTS_AI_HARD_MS", "--ai-hard-ms"},
    {"RAMPARTS_GRACE", "--grace"},
    {"RAMPARTS_EXPIRE", "--expire"},
    {"RAMPARTS_RATE", "--rate"},
    {"RAMPARTS_MAX_PER_IP", "--max-per-ip"},
    {"RAMPARTS_TRUSTED_PROXY", "--trusted-proxy"},
    {"RAMPARTS_KEEPALIVE", "--keepalive"},
    {"RAMPARTS_EVENT_LOOP", "--event-loop"},
};

static bool read_environment(serve_options *o)
{
    for (size_t i = 0; i < sizeof ENV_OPTIONS / sizeof ENV_OPTIONS[0]; i++) {
        const char *v = getenv(ENV_OPTIONS[i].env);
        if (v && *v && !apply(o, ENV_OPTIONS[i].option, v))
            return false;
    }
    const char *origins = getenv("RAMPARTS_ALLOW_ORIGIN");
    if (origins && *origins) {
        snprintf(o->origins_env, sizeof o->origins_env, "%s", origins);
        char *save = NULL;
        for (char *tok = strtok_r(o->origins_env, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save))
            if (!add_origin(o, tok))
                return false;
    }
    const char *quiet = getenv("RAMPARTS_QUIET");
    o->quiet = quiet && *quiet && strcmp(quiet, "0") != 0;
    return true;
}

int rp_cmd_serve(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        serve_help();
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
    o.net.keepalive_s = RS_NET_KEEPALIVE_DEFAULT_S;
    if (!read_environment(&o))
        return RP_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quiet") == 0) {
            o.quiet = true;
            continue;
        }
        const char *v = rp_cli_value("serve", argc, argv, &i);
        if (!v || !apply(&o, argv[i - 1], v))
            return RP_EXIT_USAGE;
    }
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
