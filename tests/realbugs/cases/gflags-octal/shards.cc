// shards.cc - benchmark application for tests/realbugs/cases/gflags-octal:
// a key-value exporter that splits a key space into shards. Its command
// line comes from a generated job file that zero-pads numbers to three
// digits (--shard_count=016 --keys=4096 --replicas=002). The flags are
// parsed with gflags at start-up; later the exporter plans the shards and
// checks that every shard gets the same number of keys. Exit 0 when the
// plan is even, 1 when it is not.
#include <gflags/gflags.h>
#include <cstdio>

DEFINE_int32(shard_count, 8, "number of shards");
DEFINE_int32(keys, 1024, "number of keys to export");
DEFINE_int32(replicas, 1, "copies of each shard");
DEFINE_bool(verbose, false, "print the plan");

namespace {

struct Plan {
    int shards;
    int per_shard;
    int remainder;
};

[[gnu::noinline]] void report_uneven(const Plan &p)
{
    std::printf("%d keys do not split evenly into %d shards (%d left over)\n",
                FLAGS_keys, p.shards, p.remainder);
}

[[gnu::noinline]] bool check_plan(const Plan &p)
{
    if (p.shards > 0 && p.remainder == 0)
        return true;
    report_uneven(p);
    return false;
}

[[gnu::noinline]] Plan plan_shards(int keys, int shards)
{
    Plan p;
    p.shards = shards;
    p.per_shard = shards > 0 ? keys / shards : 0;
    p.remainder = shards > 0 ? keys % shards : keys;
    return p;
}

} // namespace

int main(int argc, char **argv)
{
    GFLAGS_NAMESPACE::SetUsageMessage("shards --shard_count=N --keys=N");
    GFLAGS_NAMESPACE::ParseCommandLineFlags(&argc, &argv, true);

    Plan p = plan_shards(FLAGS_keys, FLAGS_shard_count);
    if (!check_plan(p))
        return 1;
    std::printf("%d shards of %d keys, %d replicas each\n", p.shards, p.per_shard,
                FLAGS_replicas);
    return 0;
}
