// blocksum.cc - benchmark application for tests/realbugs/cases/
// kyotocabinet-abortearly: checksums of eight data blocks computed by
// Kyoto Cabinet's thread pool (kyotocabinet::TaskQueue, two worker
// threads). The main thread queues the eight tasks, then calls finish(),
// which returns when every queued task was taken and the workers ended;
// then it prints the checksums. Each task works 50 ms. Exit 0 when every
// block has its checksum.
#include <kcthread.h>
#include <cstdio>
#include <unistd.h>

namespace {

const int kBlocks = 8;
const size_t kBlockSize = 4096;

unsigned char data[kBlocks][kBlockSize];
unsigned long sums[kBlocks];
bool done[kBlocks];

class BlockTask : public kyotocabinet::TaskQueue::Task {
public:
    explicit BlockTask(int block) : block_(block) {}
    int block() const { return block_; }
private:
    int block_;
};

unsigned long checksum(const unsigned char *p, size_t n)
{
    unsigned long a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

class ChecksumQueue : public kyotocabinet::TaskQueue {
public:
    void do_task(Task *task) override
    {
        BlockTask *t = static_cast<BlockTask *>(task);
        usleep(50000);                       // reading the block
        sums[t->block()] = checksum(data[t->block()], kBlockSize);
        done[t->block()] = true;
        delete t;
    }
};

int report(void)
{
    int missing = 0;
    for (int i = 0; i < kBlocks; i++) {
        if (!done[i]) {
            std::printf("block %d: no checksum\n", i);
            missing++;
        } else {
            std::printf("block %d: %08lx\n", i, sums[i]);
        }
    }
    return missing;
}

} // namespace

int main()
{
    for (int i = 0; i < kBlocks; i++)
        for (size_t j = 0; j < kBlockSize; j++)
            data[i][j] = (unsigned char)(i * 31 + j * 7);

    ChecksumQueue queue;
    queue.start(2);
    for (int i = 0; i < kBlocks; i++)
        queue.add_task(new BlockTask(i));
    queue.finish();
    int missing = report();
    if (missing) {
        std::printf("%d of %d blocks missing\n", missing, kBlocks);
        return 1;
    }
    return 0;
}
