/* workers.h — the background threads of the server, so nothing slow runs on the service
 * thread: a pool for AI searches and a small one for password hashing and WAL checkpoints
 * (argon2 takes 64 MiB and real time). Each job runs with its own copy of what it needs;
 * its result goes into one mutex-guarded inbox, and `notify` wakes the service thread
 * (lws_cancel_service in net.c), which drains the inbox. Queues are bounded and FIFO.
 * With zero threads, jobs wait until rs_workers_run_inline runs them (tests, fuzzing).
 * Layer 6 of layers.h: knows no server, only the store (checkpoints) and the engine. */
#ifndef RS_WORKERS_H
#define RS_WORKERS_H

#include <stdbool.h>
#include <stdint.h>

#include "auth.h"
#include "ramparts/engine.h"

typedef enum rs_job_kind {
    RS_JOB_AI,        /* choose a move for an AI seat */
    RS_JOB_HINT,      /* choose a move for a person who asked for a hint (answered to conn) */
    RS_JOB_REVIEW,    /* review one seat's moves (rp_review_json; answered to conn) */
    RS_JOB_HASH,      /* hash a new password (register) */
    RS_JOB_VERIFY,    /* check a password against a stored hash (login) */
    RS_JOB_REHASH,    /* check the old password, then hash the new one (a password change) */
    RS_JOB_CHECKPOINT /* a passive WAL checkpoint */
} rs_job_kind;

typedef struct rs_job {
    rs_job_kind kind;
    /* AI */
    int64_t game_id;
    int64_t ply; /* the job answers this ply only */
    int seat;
    /* A clone of the match (rp_match_clone): workers never touch a live game. The job owns it;
     * it is freed once the job ran or was dropped (rs_job_wipe). */
    rp_match *match;
    char level[24];  /* the AI's spec: a level, perhaps with a time budget ("hard:ms=2000") */
    char budget[64]; /* REVIEW: search parameters after the level's ("": the default) */
    uint64_t seed;
    /* HASH / VERIFY / HINT */
    uint64_t conn; /* who asked */
    int64_t user_id;
    char name[RS_NAME_MAX + 1];
    char password[RS_PASSWORD_MAX + 1];     /* wiped once used (REHASH: the old one) */
    char new_password[RS_PASSWORD_MAX + 1]; /* REHASH: the new one; wiped once used */
    char stored[RS_PWHASH_TEXT]; /* VERIFY, REHASH: the stored hash; HASH, REHASH: the result */
    char request_id[40];         /* the client's "id", echoed in the reply */
    char holder[64];             /* HASH, VERIFY, REHASH: the asker's address key, whose
                                    password jobs and failed logins are counted (session.c) */
    /* results */
    bool ok;
    bool weak; /* HASH, REHASH: the new password is refused by the rule (rs_password_weak);
                  `error` says why, and nothing was hashed */
    rp_action action;
    char move[RP_ACTION_TEXT]; /* its notation (for the hint's asker, the seat to act) */
    char error[RP_ERROR_TEXT];
    /* REVIEW: the review's JSON (malloc'ed), which outlives rs_job_wipe: whoever takes the
     * result frees it (rs_job_free_result). */
    char *review;
} rs_job;

/* An AI job's answer, kept apart from the job: the loop applies it, or (cluster.c) keeps it
 * a moment when another server holds the game's row. */
typedef struct rs_ai_result {
    int64_t game_id, ply;
    int seat;
    rp_action action;
    bool ok;
} rs_ai_result;

/* Zero the passwords a job carries and free its match. */
void rs_job_wipe(rs_job *job);
/* Free what a finished job computed for its taker (a review's text). */
void rs_job_free_result(rs_job *job);

typedef struct rs_workers rs_workers;
struct rs_store;

/* Start `ai_threads` AI threads (0: inline mode) plus `hash_threads` hashing threads (at
 * least one; none in inline mode). Each argon2 hash takes 64 MiB while it runs, so the pool
 * stays small. notify(ctx) is called from a worker thread whenever a result is ready. */
rs_workers *rs_workers_start(int ai_threads, int hash_threads, struct rs_store *store,
                             void (*notify)(void *), void *ctx);
/* Stop accepting jobs, let running ones finish, join the threads, free everything. */
void rs_workers_stop(rs_workers *w);

/* Queue a copy of job, which takes its match whether queued or not; false when that queue
 * is full (the caller retries later). */
bool rs_workers_submit(rs_workers *w, const rs_job *job);
/* Take one finished job into *out; false when the inbox is empty. */
bool rs_workers_take(rs_workers *w, rs_job *out);
/* Inline mode: run every queued job now, on this thread. Returns how many ran. */
int rs_workers_run_inline(rs_workers *w);
/* Jobs queued or running. */
int rs_workers_pending(rs_workers *w);

#endif
