/* serve_main.c — ramparts-serve: the online server as a program of its own, so that only it
 * links libwebsockets, libuv, SQLite and libsodium; `ramparts serve ARGS` runs it with ARGS
 * (helper.c). */
#include "cli.h"

int main(int argc, char **argv)
{
    return rp_cmd_serve(argc, argv);
}
