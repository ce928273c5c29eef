/* mpi.c — sim, arena and analyze past one machine: under `mpirun -n N` each process plays the
 * games whose index is its rank modulo N and the root process gathers every game's result, so
 * the output is exactly what one process gives. Only ramparts-mpi is built with Open MPI
 * (RP_HAVE_MPI); the light `ramparts` started by mpirun becomes ramparts-mpi (helper.c).
 * Without mpirun everything here is a no-op and the tool runs as one process. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* mpirun (Open MPI's, or a PMIx / PMI launcher) tells its children through the environment;
 * a process started by hand never touches MPI. */
static bool launched_by_mpirun(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return true;
    return false;
}

#ifdef RP_HAVE_MPI
#include <mpi.h>

static bool mpi_on;
static int mpi_rank, mpi_size = 1;

void rp_cli_mpi_start(int *argc, char ***argv)
{
    if (!launched_by_mpirun())
        return;
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return;
    mpi_on = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
}

void rp_cli_mpi_end(void)
{
    if (mpi_on)
        MPI_Finalize();
    mpi_on = false;
}

int rp_cli_mpi_rank(void)
{
    return mpi_rank;
}

int rp_cli_mpi_ranks(void)
{
    return mpi_size;
}

bool rp_cli_mpi_any(bool mine)
{
    if (!mpi_on)
        return mine;
    int here = mine, any = 0;
    MPI_Allreduce(&here, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any != 0;
}

/* The indices process r holds: r, r + size, ... below count. */
static long local_count(long count, int rank, int size)
{
    return count > rank ? (count - rank + size - 1) / size : 0;
}

/* One block of items (count at most what an int can count in bytes). */
static int gather_block(unsigned char *all, size_t item_size, long count, rp_error *err)
{
    const size_t mine_bytes = (size_t)local_count(count, mpi_rank, mpi_size) * item_size;
    unsigned char *packed = malloc(mine_bytes ? mine_bytes : 1);
    int *counts = calloc((size_t)mpi_size, sizeof *counts);
    int *offsets = calloc((size_t)mpi_size, sizeof *offsets);
    unsigned char *gathered = mpi_rank == 0 ? malloc(item_size * (size_t)count + 1) : NULL;
    bool ok = packed && counts && offsets && (mpi_rank != 0 || gathered);
    const bool any_failed = rp_cli_mpi_any(!ok); /* every rank takes part, ok or not */
    if (!ok || any_failed) {
        free(packed), free(counts), free(offsets), free(gathered);
        return rp_fail(err, RP_ENOMEM, "MPI: out of memory gathering results");
    }
    long k = 0;
    for (long i = mpi_rank; i < count; i += mpi_size)
        memcpy(packed + (size_t)k++ * item_size, all + (size_t)i * item_size, item_size);
    for (int r = 0, at = 0; r < mpi_size; r++) {
        counts[r] = (int)((size_t)local_count(count, r, mpi_size) * item_size);
        offsets[r] = at;
        at += counts[r];
    }
    MPI_Gatherv(packed, (int)mine_bytes, MPI_BYTE, gathered, counts, offsets, MPI_BYTE, 0,
                MPI_COMM_WORLD);
    if (mpi_rank == 0) {
        for (int r = 0; r < mpi_size; r++) {
            const unsigned char *from = gathered + offsets[r];
            for (long i = r; i < count; i += mpi_size, from += item_size)
                memcpy(all + (size_t)i * item_size, from, item_size);
        }
    }
    free(packed), free(counts), free(offsets), free(gathered);
    return RP_OK;
}

int rp_cli_mpi_gather(void *items, size_t item_size, long count, rp_error *err)
{
    if (!mpi_on || mpi_size == 1)
        return RP_OK;
    /* Blocks of a multiple of the process count keep "index i lives on process i % N" true
     * inside each block, and keep every byte count within an int. The tests make the blocks
     * small (RAMPARTS_MPI_GATHER_BYTES) to run this loop on a few games. */
    size_t bytes = 1u << 30;
    const char *limit = getenv("RAMPARTS_MPI_GATHER_BYTES");
    if (limit && strtoul(limit, NULL, 10) > 0 && strtoul(limit, NULL, 10) < bytes)
        bytes = strtoul(limit, NULL, 10);
    long per_rank = (long)(bytes / (item_size * (size_t)mpi_size));
    const long block = (per_rank > 0 ? per_rank : 1) * mpi_size;
    unsigned char *all = items;
    for (long first = 0; first < count; first += block) {
        const long n = count - first < block ? count - first : block;
        const int rc = gather_block(all + (size_t)first * item_size, item_size, n, err);
        if (rc < 0)
            return rc;
    }
    return RP_OK;
}

#else /* the light tool: one process, or ramparts-mpi under mpirun */

void rp_cli_mpi_start(int *argc, char ***argv)
{
    if (!launched_by_mpirun())
        return;
    /* Returns only when ramparts-mpi cannot be run: N copies each playing every game alone
     * would print N wrong answers, so stop instead. */
    exit(rp_cli_exec_helper("mpirun", "ramparts-mpi", *argc, *argv));
}

void rp_cli_mpi_end(void)
{
}

int rp_cli_mpi_rank(void)
{
    return 0;
}

int rp_cli_mpi_ranks(void)
{
    return 1;
}

bool rp_cli_mpi_any(bool mine)
{
    return mine;
}

int rp_cli_mpi_gather(void *items, size_t item_size, long count, rp_error *err)
{
    (void)items, (void)item_size, (void)count, (void)err;
    return RP_OK;
}

#endif

bool rp_cli_mpi_root(void)
{
    return rp_cli_mpi_rank() == 0;
}
