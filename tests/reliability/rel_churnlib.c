/*
 * rel_churnlib.c - the library check (i)'s dlopen/dlclose loop churns
 * (build/rel/librel_churn.so). Linked with -nostartfiles: no crtbegin, so
 * no __do_global_dtors_aux and no __cxa_finalize in its dlclose. glibc's
 * fork does not take or reset __exit_funcs_lock, which __cxa_finalize
 * holds: a child forked then hangs in exit(), traced or not (libm's
 * dlclose, 5-6 of 200 untraced children on this machine). This library
 * keeps the loader's locks in play (mapping, 4096 relocations, the list
 * of objects) and leaves out that glibc hang, so the check measures only
 * what libttcap adds.
 */
static const char *const tab[4096] = { [0 ... 4095] = "x" };

/* An entry of the table (its relocations are the loader's work). */
const char *rel_churn_get(unsigned i);
const char *rel_churn_get(unsigned i)
{
    return tab[i & 4095];
}
