/* workers.c — see workers.h. Two bounded FIFO queues (AI, hashing), each with its own pool of
 * threads, one result inbox, one mutex; threads sleep on a condition variable. Workers never call lws: they only call
 * notify, which in the real server is lws_cancel_service, the one call lws allows from
 * another thread. */
#include "workers.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/ai.h"
#include "ramparts/review.h"
#include "store.h"

#define QUEUE_CAP 256
#define MAX_AI_THREADS 16
#define MAX_HASH_THREADS 8

typedef struct done_job {
    struct done_job *next;
    rs_job *job;
} done_job;

typedef struct job_queue {
    rs_job *items[QUEUE_CAP];
    int head, count;
} job_queue;

struct rs_workers {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    job_queue ai, hash;
    /* Finished jobs, FIFO. Unbounded as a list, but never longer than the jobs the two
     * bounded queues let in since the service thread last drained it. */
    struct done_job *done_head, **done_tail;
    int running_jobs;
    bool stopping;
    int ai_threads;
    pthread_t threads[MAX_AI_THREADS + MAX_HASH_THREADS];
    int num_threads;
    struct rs_store *store;
    void (*notify)(void *);
    void *ctx;
};

static bool queue_push(job_queue *q, rs_job *job)
{
    if (q->count == QUEUE_CAP)
        return false;
    q->items[(q->head + q->count) % QUEUE_CAP] = job;
    q->count++;
    return true;
}

static rs_job *queue_pop(job_queue *q)
{
    if (q->count == 0)
        return NULL;
    rs_job *job = q->items[q->head];
    q->head = (q->head + 1) % QUEUE_CAP;
    q->count--;
    return job;
}

static void run_ai(rs_job *job)
{
    rp_genmove g;
    rp_error err = {{0}};
    job->ok = job->match && rp_match_choose(job->match, job->level, 0, job->seed, &g, &err) == 0;
    if (!job->ok) {
        snprintf(job->error, sizeof job->error, "%s", err.msg);
        return;
    }
    job->action = g.action;
    snprintf(job->move, sizeof job->move, "%s", g.text);
}

/* The review of the clone's seat at the job's budget: the numbers the terminal gives for the
 * same record and budget (docs/review.md). */
static void run_review(rs_job *job)
{
    rp_error err = {{0}};
    const rp_review_opts opts = {.budget = job->budget};
    job->review = job->match ? rp_review_json(job->match, job->seat, &opts, &err) : NULL;
    job->ok = job->review != NULL;
    if (!job->ok)
        snprintf(job->error, sizeof job->error, "%s", err.msg);
}

void rs_job_free_result(rs_job *job)
{
    free(job->review);
    job->review = NULL;
}

void rs_job_wipe(rs_job *job)
{
    rs_secret_wipe(job->password, sizeof job->password);
    rs_secret_wipe(job->new_password, sizeof job->new_password);
    rp_match_free(job->match);
    job->match = NULL;
}

/* A password change: ok once the old password matched the stored hash, which the new
 * password's hash then replaces; `error` says when the hashing itself failed. */
static void run_rehash(rs_job *job)
{
    job->ok = rs_password_verify(job->stored, job->password);
    if (!job->ok)
        return;
    job->weak = rs_password_weak(job->new_password, job->name, job->error, sizeof job->error);
    if (job->weak) {
        job->ok = false;
        return;
    }
    if (!rs_password_hash(job->new_password, job->stored)) {
        job->ok = false;
        snprintf(job->error, sizeof job->error, "cannot hash the password");
    }
}

static void run_job(rs_workers *w, rs_job *job)
{
    switch (job->kind) {
    case RS_JOB_AI:
    case RS_JOB_HINT:
        run_ai(job);
        break;
    case RS_JOB_REVIEW:
        run_review(job);
        break;
    case RS_JOB_HASH: /* the rule first: a password it refuses is never hashed */
        job->weak = rs_password_weak(job->password, job->name, job->error, sizeof job->error);
        job->ok = !job->weak && rs_password_hash(job->password, job->stored);
        break;
    case RS_JOB_VERIFY:
        if (job->stored[0]) {
            job->ok = rs_password_verify(job->stored, job->password);
        } else { /* no such account: spend the same time, so timing tells nothing */
            char discard[RS_PWHASH_TEXT];
            rs_password_hash(job->password, discard);
            job->ok = false;
        }
        break;
    case RS_JOB_REHASH:
        run_rehash(job);
        break;
    case RS_JOB_CHECKPOINT:
        job->ok = rs_store_checkpoint(w->store) == RS_STORE_OK;
        break;
    }
    rs_job_wipe(job);
}

/* Hand a finished job to the inbox (dropped if the inbox is full, which the bounded queues
 * in front of it make impossible). */
static void finish(rs_workers *w, rs_job *job)
{
    done_job *d = malloc(sizeof *d);
    pthread_mutex_lock(&w->lock);
    w->running_jobs--;
    if (d) {
        d->next = NULL;
        d->job = job;
        *w->done_tail = d;
        w->done_tail = &d->next;
    } else {
        rs_job_free_result(job);
        free(job); /* out of memory: the referee resubmits jobs it hears nothing of */
    }
    pthread_mutex_unlock(&w->lock);
    if (w->notify)
        w->notify(w->ctx);
}

typedef struct thread_arg {
    rs_workers *w;
    job_queue *queue;
} thread_arg;

static void *worker_main(void *arg)
{
    thread_arg *ta = arg;
    rs_workers *w = ta->w;
    job_queue *q = ta->queue;
    free(ta);
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->stopping && q->count == 0)
            pthread_cond_wait(&w->wake, &w->lock);
        if (w->stopping)
            break;
        rs_job *job = queue_pop(q);
        w->running_jobs++;
        pthread_mutex_unlock(&w->lock);
        run_job(w, job);
        finish(w, job);
        pthread_mutex_lock(&w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static bool start_thread(rs_workers *w, job_queue *q)
{
    thread_arg *ta = malloc(sizeof *ta);
    if (!ta)
        return false;
    ta->w = w;
    ta->queue = q;
    if (pthread_create(&w->threads[w->num_threads], NULL, worker_main, ta) != 0) {
        free(ta);
        return false;
    }
    w->num_threads++;
    return true;
}

static int clamp(int n, int most)
{
    return n < 0 ? 0 : n > most ? most : n;
}

rs_workers *rs_workers_start(int ai_threads, int hash_threads, struct rs_store *store,
                             void (*notify)(void *), void *ctx)
{
    rs_workers *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    w->done_tail = &w->done_head;
    w->store = store;
    w->notify = notify;
    w->ctx = ctx;
    w->ai_threads = clamp(ai_threads, MAX_AI_THREADS);
    /* Inline mode (no AI thread) has no hashing thread either: every job waits for the test. */
    const int hashers =
        w->ai_threads > 0 ? clamp(hash_threads < 1 ? 1 : hash_threads, MAX_HASH_THREADS) : 0;
    bool ok = true;
    for (int i = 0; i < w->ai_threads && ok; i++)
        ok = start_thread(w, &w->ai);
    for (int i = 0; i < hashers && ok; i++)
        ok = start_thread(w, &w->hash);
    if (!ok) {
        rs_workers_stop(w);
        return NULL;
    }
    return w;
}

static void free_queue(job_queue *q)
{
    rs_job *job;
    while ((job = queue_pop(q))) {
        rs_job_wipe(job);
        rs_job_free_result(job);
        free(job);
    }
}

void rs_workers_stop(rs_workers *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = true;
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->lock);
    for (int i = 0; i < w->num_threads; i++)
        pthread_join(w->threads[i], NULL);
    free_queue(&w->ai);
    free_queue(&w->hash);
    while (w->done_head) {
        done_job *d = w->done_head;
        w->done_head = d->next;
        rs_job_free_result(d->job);
        free(d->job);
        free(d);
    }
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

bool rs_workers_submit(rs_workers *w, const rs_job *job)
{
    rs_job *copy = malloc(sizeof *copy);
    if (!copy)
        return false;
    *copy = *job;
    copy->ok = false;
    copy->weak = false;
    copy->error[0] = '\0';
    copy->review = NULL;
    pthread_mutex_lock(&w->lock);
    const bool search =
        job->kind == RS_JOB_AI || job->kind == RS_JOB_HINT || job->kind == RS_JOB_REVIEW;
    job_queue *q = search ? &w->ai : &w->hash;
    bool queued = !w->stopping && queue_push(q, copy);
    if (queued)
        pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->lock);
    if (!queued) {
        rs_job_wipe(copy);
        free(copy);
    }
    return queued;
}

bool rs_workers_take(rs_workers *w, rs_job *out)
{
    pthread_mutex_lock(&w->lock);
    done_job *d = w->done_head;
    if (d) {
        w->done_head = d->next;
        if (!w->done_head)
            w->done_tail = &w->done_head;
    }
    pthread_mutex_unlock(&w->lock);
    if (!d)
        return false;
    *out = *d->job;
    free(d->job);
    free(d);
    return true;
}

int rs_workers_run_inline(rs_workers *w)
{
    int ran = 0;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        rs_job *job = queue_pop(&w->ai);
        if (!job)
            job = queue_pop(&w->hash);
        if (job)
            w->running_jobs++;
        pthread_mutex_unlock(&w->lock);
        if (!job)
            return ran;
        run_job(w, job);
        finish(w, job);
        ran++;
    }
}

int rs_workers_pending(rs_workers *w)
{
    pthread_mutex_lock(&w->lock);
    int n = w->ai.count + w->hash.count + w->running_jobs;
    pthread_mutex_unlock(&w->lock);
    return n;
}
