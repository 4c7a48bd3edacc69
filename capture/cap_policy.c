/*
 * cap_policy.c - what a thread's writer owes the layers above it when it
 * moves to a new chunk and when the thread ends: the LOST records, the
 * thread's name, ring-mode definitions (name, call sites, modules) written
 * again into a recycled chunk, the module records of objects loaded or
 * unloaded since (cap_modules.c), and the values mode shadow stack
 * (cap_shadow.c). The writer (cap_core.c) sits below and calls nothing
 * above it: it reaches chunk_switched through cap_hooks, which cap_start
 * fills (cap_policy_hooks); the thread end wraps the writer's two halves.
 * Slow path only.
 */
#include "cap_int.h"

/* Records owed at the start of a new chunk (cap_hooks.switched): the
 * thread now writes in chunk, a ring-mode reuse when recycled. */
static void chunk_switched(struct tstate *t, int recycled, uint64_t chunk)
{
    cap_flush_lost(t);
    if (recycled) {
        if (t->name[0])
            cap_write_name(t, t->name);
        if (!atomic_flag_test_and_set(&cap.site_lock)) { /* else: nested, skip */
            for (struct ttcap_site *s = atomic_load(&cap.sites); s; s = s->next)
                if (s->def_chunk == chunk + 1)
                    cap_write_site(t, s);
            cap_spin_unlock(&cap.site_lock);
        }
        cap_rewrite_modules(t, chunk + 1);
    }
    cap_check_names(t);
    cap_check_modules(t, 0);
}

/* The hooks the writer calls up through (cap_hooks in cap_int.h). */
void cap_policy_hooks(struct cap_hooks *h)
{
    h->switched = chunk_switched;
}

/* pthread key destructor: the thread is ending. Its name and the modules
 * as they are now, then the writer closes its chunk (THREAD_END), then the
 * values mode shadow stack goes. */
void cap_thread_end(void *arg)
{
    (void)arg;
    struct tstate *t = &cap_tls;
    if (!cap_thread_ending(t))
        return;
    cap_check_names(t);
    cap_check_modules(t, 0);
    cap_thread_close(t);
    cap_values_thread_end();
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
}
