// ldb.cc - the leveldb-commitrace case's application (benchmark code),
// leveldb-groupcommit's with one change: opens a fresh database in ./db on
// a slow disk (the application's own Env, an EnvWrapper: once armed, a
// write-ahead log's Sync takes 100 ms), then a writer thread puts key "a"
// with sync=true while the main thread, GAP ms (the argument: "300" or
// "000") after that Sync has begun, puts key "b" (sync=false). Both Puts
// must return OK and both keys read back afterwards, whatever GAP.
// Exit 0: both keys read back; 1: a Put failed or a key is missing.
#include <atomic>
#include <semaphore.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <unistd.h>
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/options.h"

static std::atomic<bool> armed(false);
static sem_t in_sync; // posted when an armed Sync begins

// a write-ahead log file whose Sync is slow once the test is armed
class SlowLog : public leveldb::WritableFile {
 public:
  explicit SlowLog(leveldb::WritableFile *f) : f_(f) {}
  ~SlowLog() override { delete f_; }
  leveldb::Status Append(const leveldb::Slice &d) override { return f_->Append(d); }
  leveldb::Status Close() override { return f_->Close(); }
  leveldb::Status Flush() override { return f_->Flush(); }
  leveldb::Status Sync() override {
    if (armed.load()) {
      sem_post(&in_sync);
      usleep(100000); // a slow disk
    }
    return f_->Sync();
  }

 private:
  leveldb::WritableFile *f_;
};

class SlowDisk : public leveldb::EnvWrapper {
 public:
  SlowDisk() : EnvWrapper(leveldb::Env::Default()) {}
  leveldb::Status NewWritableFile(const std::string &name,
                                  leveldb::WritableFile **out) override {
    leveldb::Status s = target()->NewWritableFile(name, out);
    if (s.ok() && name.size() > 4 && name.compare(name.size() - 4, 4, ".log") == 0)
      *out = new SlowLog(*out);
    return s;
  }
};

__attribute__((noinline)) static int report(const char *what, const std::string &key,
                                            const leveldb::Status &s)
{
  std::printf("%s %s: %s\n", what, key.c_str(), s.ToString().c_str());
  return 1;
}

int main(int argc, char **argv)
{
  const int gap = argc > 1 ? std::atoi(argv[1]) : 0;
  static SlowDisk disk;
  leveldb::Options o;
  o.create_if_missing = true;
  o.env = &disk;
  leveldb::DB *db = nullptr;
  sem_init(&in_sync, 0, 0);
  leveldb::Status s = leveldb::DB::Open(o, "db", &db);
  if (!s.ok()) return report("open", "db", s);

  const std::string va(100, 'a'), vb(100, 'b');
  leveldb::Status sa, sb;
  armed.store(true);
  std::thread writer([&] {
    leveldb::WriteOptions w;
    w.sync = true;
    sa = db->Put(w, "a", va);
  });
  sem_wait(&in_sync); // until the writer's Sync has begun
  usleep(gap * 1000); // the main thread's key is ready GAP ms later
  sb = db->Put(leveldb::WriteOptions(), "b", vb);
  writer.join();
  armed.store(false);

  int bad = 0;
  if (!sa.ok()) bad |= report("put", "a", sa);
  if (!sb.ok()) bad |= report("put", "b", sb);
  std::string got;
  for (const char *k : {"a", "b"}) {
    leveldb::Status g = db->Get(leveldb::ReadOptions(), k, &got);
    if (!g.ok()) bad |= report("get", k, g);
    else if (got != (k[0] == 'a' ? va : vb)) bad |= report("value of", k, leveldb::Status::Corruption("differs"));
  }
  delete db;
  if (!bad) std::printf("both keys read back\n");
  return bad;
}
