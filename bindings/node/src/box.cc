// box.cc - opening a sandbox and its file, snapshot and tar calls.
#include "box.h"

#include <functional>
#include <utility>

namespace vshnode {

namespace {

// One call on the libuv pool: `work` runs there and fills a Failure;
// `done` builds the resolved value back on the main thread.
class Task : public Napi::AsyncWorker {
public:
  using Work = std::function<void(Failure &)>;
  using Done = std::function<Napi::Value(Napi::Env)>;

  Task(Box *box, Napi::Promise::Deferred d, Work work, Done done)
      : Napi::AsyncWorker(box->Env(), "vsh"), box_(box), d_(d),
        work_(std::move(work)), done_(std::move(done)) {
    box_ref_ = Napi::Persistent(box->Value());
    box_->Enter();
  }
  // Keeps a JavaScript object (a snapshot) alive while the call runs.
  void Keep(const Napi::Object &o) { keep_ = Napi::Persistent(o); }

  void Execute() override { work_(f_); }
  void OnOK() override {
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    if (f_.failed)
      d_.Reject(MakeError(env, f_).Value());
    else
      d_.Resolve(done_ ? done_(env) : env.Undefined());
    box_->Leave();
  }
  void OnError(const Napi::Error &e) override {
    d_.Reject(e.Value());
    box_->Leave();
  }

private:
  Box *box_;
  Napi::ObjectReference box_ref_; // the Box outlives the call
  Napi::Promise::Deferred d_;
  Work work_;
  Done done_;
  Failure f_;
  Napi::ObjectReference keep_;
};

std::string StrArg(const Napi::CallbackInfo &info, size_t i) {
  if (info.Length() <= i || !info[i].IsString())
    throw Napi::TypeError::New(info.Env(), "expected a string argument");
  return info[i].As<Napi::String>().Utf8Value();
}

bool BoolArg(const Napi::CallbackInfo &info, size_t i) {
  return info.Length() > i && info[i].ToBoolean().Value();
}

uint64_t U64(const Napi::Object &o, const char *key) {
  Napi::Value v = o.Get(key);
  if (!v.IsNumber())
    return 0;
  double d = v.As<Napi::Number>().DoubleValue();
  if (!(d > 0))
    return 0;
  if (d >= 18446744073709551615.0)
    return UINT64_MAX;
  return (uint64_t)d;
}

struct ForkInit {
  vsh_sandbox *sb;
  std::shared_ptr<NetHolder> net;
  std::string cwd;
};

std::shared_ptr<NetHolder> BuildNet(const Napi::Object &n) {
  auto h = std::make_shared<NetHolder>();
  Napi::Array urls = n.Get("allowUrls").IsArray()
                         ? n.Get("allowUrls").As<Napi::Array>()
                         : Napi::Array::New(n.Env());
  Napi::Array methods = n.Get("allowMethods").IsArray()
                            ? n.Get("allowMethods").As<Napi::Array>()
                            : Napi::Array::New(n.Env());
  // Count the strings first so that the storage never moves.
  size_t nstr = methods.Length();
  for (uint32_t i = 0; i < urls.Length(); i++) {
    Napi::Object r = urls.Get(i).As<Napi::Object>();
    nstr += 1 + 2 * r.Get("headers").As<Napi::Array>().Length();
  }
  h->strings.reserve(nstr);
  h->headers.resize(urls.Length());
  for (uint32_t i = 0; i < urls.Length(); i++) {
    Napi::Object r = urls.Get(i).As<Napi::Object>();
    h->strings.push_back(r.Get("prefix").As<Napi::String>().Utf8Value());
    const char *prefix = h->strings.back().c_str();
    Napi::Array hs = r.Get("headers").As<Napi::Array>();
    for (uint32_t j = 0; j < hs.Length(); j++) {
      Napi::Array kv = hs.Get(j).As<Napi::Array>();
      h->strings.push_back(kv.Get(0u).As<Napi::String>().Utf8Value());
      const char *name = h->strings.back().c_str();
      h->strings.push_back(kv.Get(1u).As<Napi::String>().Utf8Value());
      h->headers[i].push_back({name, h->strings.back().c_str()});
    }
    h->rules.push_back({prefix, h->headers[i].data(), h->headers[i].size()});
  }
  for (uint32_t i = 0; i < methods.Length(); i++) {
    h->strings.push_back(methods.Get(i).As<Napi::String>().Utf8Value());
    h->methods.push_back(h->strings.back().c_str());
  }
  vsh_net_policy &p = h->policy;
  p.rules = h->rules.data();
  p.nrules = h->rules.size();
  p.methods = h->methods.data();
  p.nmethods = h->methods.size();
  p.deny_private = n.Get("denyPrivate").ToBoolean().Value() ? 1 : 0;
  if (n.Get("timeoutMs").IsNumber())
    p.timeout_ms = n.Get("timeoutMs").As<Napi::Number>().Int64Value();
  p.max_response_bytes = U64(n, "maxResponseBytes");
  return h;
}

} // namespace

// ------------------------------------------------------------- errors

void FailFromDriver(Failure &f, const vsh_drv_err &err) {
  f.failed = true;
  f.kind = err.kind;
  f.code = err.code;
  f.message = err.message;
}

void FailFromApi(Failure &f, vsh_sandbox *sb, vsh_status st, const char *what) {
  f.failed = true;
  f.code = sb ? vsh_errcode(sb) : 0;
  switch (st) {
  case VSH_FS:
    f.kind = VSH_DRV_ERRNO;
    break;
  case VSH_ABORT:
    f.kind = VSH_DRV_ABORT;
    break;
  case VSH_DIED:
    f.kind = VSH_DRV_DIED;
    break;
  case VSH_UNSUPPORTED:
    f.kind = VSH_DRV_UNSUPPORTED;
    break;
  default:
    f.kind = f.code ? VSH_DRV_ERRNO : 0;
  }
  const char *msg = sb ? vsh_errmsg(sb) : nullptr;
  f.message =
      std::string(what) + ": " + (msg && *msg ? msg : vsh_status_str(st));
}

Napi::Error MakeError(Napi::Env env, const Failure &f) {
  Napi::Error e = Napi::Error::New(env, f.message);
  e.Set("vshKind", Napi::Number::New(env, f.kind));
  e.Set("vshErrno", Napi::Number::New(env, f.code));
  if (!f.syscall.empty())
    e.Set("syscall", Napi::String::New(env, f.syscall));
  if (!f.path.empty())
    e.Set("path", Napi::String::New(env, f.path));
  return e;
}

// -------------------------------------------------------- small classes

Napi::Function Cancel::Define(Napi::Env env) {
  return DefineClass(env, "Cancel", {InstanceMethod("set", &Cancel::Set)});
}

Cancel::Cancel(const Napi::CallbackInfo &info) : ObjectWrap(info) {
  token_ = std::make_shared<Token>();
  if (!token_->c)
    throw Napi::Error::New(info.Env(), "out of memory");
}

Napi::Value Cancel::Set(const Napi::CallbackInfo &info) {
  vsh_cancel_set(token_->c);
  return info.Env().Undefined();
}

Napi::Function Snapshot::Define(Napi::Env env) {
  return DefineClass(env, "Snapshot", {});
}

Snapshot::Snapshot(const Napi::CallbackInfo &info) : ObjectWrap(info) {
  if (info.Length() > 0 && info[0].IsExternal())
    snap = info[0].As<Napi::External<vsh_snapshot>>().Data();
}

Snapshot::~Snapshot() {
  vsh_snapshot_free(snap);
}

// ------------------------------------------------------------------ Box

Napi::Function Box::Define(Napi::Env env) {
  return DefineClass(
      env, "Box",
      {InstanceMethod("readFile", &Box::ReadFile),
       InstanceMethod("writeFile", &Box::WriteFile),
       InstanceMethod("stat", &Box::Stat),
       InstanceMethod("readdir", &Box::Readdir),
       InstanceMethod("exists", &Box::Exists),
       InstanceMethod("mkdir", &Box::Mkdir), InstanceMethod("rm", &Box::Rm),
       InstanceMethod("exec", &Box::Exec),
       InstanceMethod("snapshot", &Box::TakeSnapshot),
       InstanceMethod("restore", &Box::Restore),
       InstanceMethod("fork", &Box::Fork),
       InstanceMethod("persist", &Box::Persist),
       InstanceMethod("hydrate", &Box::Hydrate),
       InstanceMethod("close", &Box::Close), InstanceMethod("cwd", &Box::Cwd)});
}

Box::Box(const Napi::CallbackInfo &info) : ObjectWrap(info) {
  if (info.Length() > 0 && info[0].IsExternal()) {
    ForkInit *fi = info[0].As<Napi::External<ForkInit>>().Data();
    sb_ = fi->sb;
    net_ = fi->net;
    cwd_ = fi->cwd;
    drv_ = vsh_driver_isolate(sb_); // closes sb on failure
    if (!drv_) {
      sb_ = nullptr;
      throw Napi::Error::New(info.Env(), "out of memory");
    }
    return;
  }
  Napi::Object opts = info.Length() > 0 && info[0].IsObject()
                          ? info[0].As<Napi::Object>()
                          : Napi::Object::New(info.Env());
  Open(opts);
}

void Box::Open(const Napi::Object &o) {
  Napi::Env env = o.Env();
  vsh_config cfg;
  vsh_config_init(&cfg);

  cwd_ = o.Get("cwd").IsString() ? o.Get("cwd").As<Napi::String>().Utf8Value()
                                 : "/home/user";
  cfg.cwd = cwd_.c_str();

  std::vector<std::string> env_s;
  std::vector<const char *> env_p;
  if (o.Get("env").IsArray()) {
    Napi::Array a = o.Get("env").As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); i++)
      env_s.push_back(a.Get(i).As<Napi::String>().Utf8Value());
    for (auto &s : env_s)
      env_p.push_back(s.c_str());
    env_p.push_back(nullptr);
    cfg.env = env_p.data();
  }

  std::vector<std::string> paths;
  std::vector<vsh_file_init> files;
  if (o.Get("files").IsArray()) {
    Napi::Array a = o.Get("files").As<Napi::Array>();
    paths.reserve(a.Length());
    for (uint32_t i = 0; i < a.Length(); i++) {
      Napi::Object f = a.Get(i).As<Napi::Object>();
      paths.push_back(f.Get("path").As<Napi::String>().Utf8Value());
      Napi::Buffer<char> b = f.Get("data").As<Napi::Buffer<char>>();
      vsh_file_init fi{};
      fi.path = paths.back().c_str();
      fi.data = b.Data();
      fi.len = b.Length();
      fi.mode = f.Get("mode").IsNumber()
                    ? f.Get("mode").As<Napi::Number>().Uint32Value()
                    : 0;
      files.push_back(fi);
    }
    cfg.files = files.data();
    cfg.nfiles = files.size();
  }

  std::vector<std::string> mstr;
  std::vector<vsh_mount> mounts;
  if (o.Get("mounts").IsArray()) {
    Napi::Array a = o.Get("mounts").As<Napi::Array>();
    mstr.reserve(2 * a.Length());
    for (uint32_t i = 0; i < a.Length(); i++) {
      Napi::Object m = a.Get(i).As<Napi::Object>();
      mstr.push_back(m.Get("hostDir").As<Napi::String>().Utf8Value());
      const char *host = mstr.back().c_str();
      mstr.push_back(m.Get("path").As<Napi::String>().Utf8Value());
      mounts.push_back({host, mstr.back().c_str()});
    }
    cfg.mounts = mounts.data();
    cfg.nmounts = mounts.size();
  }

  if (o.Get("limits").IsObject()) {
    Napi::Object l = o.Get("limits").As<Napi::Object>();
    cfg.limits.max_commands = U64(l, "maxCommands");
    cfg.limits.max_loop_iterations = U64(l, "maxLoopIterations");
    cfg.limits.max_call_depth = (uint32_t)U64(l, "maxCallDepth");
    cfg.limits.max_output_bytes = U64(l, "maxOutputBytes");
    cfg.limits.max_memory = U64(l, "maxMemory");
    cfg.limits.max_fs_bytes = U64(l, "maxFsBytes");
    cfg.limits.max_fs_inodes = U64(l, "maxFsInodes");
    cfg.limits.max_string_bytes = U64(l, "maxStringBytes");
    cfg.limits.timeout_ms = (int64_t)U64(l, "timeoutMs");
    cfg.limits.max_jobs = (uint32_t)U64(l, "maxJobs");
  }

  if (o.Get("network").IsObject()) {
    net_ = BuildNet(o.Get("network").As<Napi::Object>());
    cfg.net = &net_->policy;
  }

  vsh_sandbox *sb = nullptr;
  vsh_status st = vsh_open(&cfg, &sb);
  if (st != VSH_OK) {
    Failure f;
    FailFromApi(f, nullptr, st, "cannot open the sandbox");
    throw MakeError(env, f);
  }
  sb_ = sb;
  drv_ = vsh_driver_isolate(sb);
  if (!drv_) {
    sb_ = nullptr;
    throw Napi::Error::New(env, "cannot open the sandbox: out of memory");
  }
}

// With calls in flight (only when the environment is torn down, as the
// calls hold the object otherwise) the sandbox is left to the process.
Box::~Box() {
  if (inflight_ == 0) {
    Destroy();
    return;
  }
  for (vsh_cancel *c : running_)
    vsh_cancel_set(c);
}

void Box::Destroy() {
  if (drv_)
    drv_->destroy(drv_);
  drv_ = nullptr;
  sb_ = nullptr;
}

void Box::Enter() {
  inflight_++;
}

void Box::Leave() {
  if (--inflight_ == 0 && closed_)
    Destroy();
}

bool Box::CheckOpen(const Napi::Env &env, Napi::Promise::Deferred &d) {
  if (!closed_)
    return true;
  Failure f;
  f.failed = true;
  f.kind = VSH_DRV_DIED;
  f.code = 0;
  f.message = "the sandbox is closed";
  d.Reject(MakeError(env, f).Value());
  return false;
}

Napi::Value Box::Close(const Napi::CallbackInfo &info) {
  if (!closed_) {
    closed_ = true;
    for (vsh_cancel *c : running_)
      vsh_cancel_set(c);
    if (inflight_ == 0)
      Destroy();
  }
  return info.Env().Undefined();
}

Napi::Value Box::Cwd(const Napi::CallbackInfo &info) {
  return Napi::String::New(info.Env(), cwd_);
}

// Start a Task and return its promise.
#define VSH_TASK(WORK, DONE)                                                   \
  do {                                                                         \
    auto deferred = Napi::Promise::Deferred::New(info.Env());                  \
    if (!CheckOpen(info.Env(), deferred))                                      \
      return deferred.Promise();                                               \
    (new Task(this, deferred, WORK, DONE))->Queue();                           \
    return deferred.Promise();                                                 \
  } while (0)

Napi::Value Box::ReadFile(const Napi::CallbackInfo &info) {
  std::string path = StrArg(info, 0);
  bool text = BoolArg(info, 1);
  auto out = std::make_shared<std::string>();
  vsh_driver *d = drv_;
  VSH_TASK(([d, path, out](Failure &f) {
             vsh_drv_err err{};
             char *data = nullptr;
             size_t len = 0;
             if (d->read_file(d, path.c_str(), &data, &len, &err) != 0)
               return FailFromDriver(f, err);
             out->assign(data, len);
             d->free_buf(d, data);
           }),
           ([out, text](Napi::Env env) -> Napi::Value {
             if (text)
               return Napi::String::New(env, *out);
             return Napi::Buffer<char>::Copy(env, out->data(), out->size());
           }));
}

Napi::Value Box::WriteFile(const Napi::CallbackInfo &info) {
  std::string path = StrArg(info, 0);
  if (info.Length() < 2 || !info[1].IsBuffer())
    throw Napi::TypeError::New(info.Env(), "expected a Buffer");
  Napi::Buffer<char> b = info[1].As<Napi::Buffer<char>>();
  auto data = std::make_shared<std::string>(b.Data(), b.Length());
  vsh_driver *d = drv_;
  VSH_TASK(([d, path, data](Failure &f) {
             vsh_drv_err err{};
             if (d->write_file(d, path.c_str(), data->data(), data->size(),
                               &err) != 0)
               FailFromDriver(f, err);
           }),
           nullptr);
}

Napi::Value Box::Stat(const Napi::CallbackInfo &info) {
  std::string path = StrArg(info, 0);
  auto st = std::make_shared<vsh_drv_stat>();
  vsh_driver *d = drv_;
  VSH_TASK(([d, path, st](Failure &f) {
             vsh_drv_err err{};
             if (d->stat(d, path.c_str(), st.get(), &err) != 0)
               FailFromDriver(f, err);
           }),
           ([st](Napi::Env env) -> Napi::Value {
             Napi::Object o = Napi::Object::New(env);
             o.Set("isFile", Napi::Boolean::New(env, st->is_file));
             o.Set("isDirectory", Napi::Boolean::New(env, st->is_directory));
             if (st->fields & VSH_DRV_HAS_SYMLINK)
               o.Set("isSymbolicLink", Napi::Boolean::New(env, st->is_symlink));
             if (st->fields & VSH_DRV_HAS_SIZE)
               o.Set("size", Napi::Number::New(env, (double)st->size));
             if (st->fields & VSH_DRV_HAS_MTIME)
               o.Set("mtimeMs", Napi::Number::New(env, (double)st->mtime_ms));
             return o;
           }));
}

Napi::Value Box::Readdir(const Napi::CallbackInfo &info) {
  std::string path = StrArg(info, 0);
  auto names = std::make_shared<std::vector<std::string>>();
  vsh_driver *d = drv_;
  VSH_TASK(([d, path, names](Failure &f) {
             vsh_drv_err err{};
             char **v = nullptr;
             size_t n = 0;
             if (d->readdir(d, path.c_str(), &v, &n, &err) != 0)
               return FailFromDriver(f, err);
             for (size_t i = 0; i < n; i++) {
               names->push_back(v[i]);
               d->free_buf(d, v[i]);
             }
             d->free_buf(d, v);
           }),
           ([names](Napi::Env env) -> Napi::Value {
             Napi::Array a = Napi::Array::New(env, names->size());
             for (size_t i = 0; i < names->size(); i++)
               a.Set((uint32_t)i, Napi::String::New(env, (*names)[i]));
             return a;
           }));
}

Napi::Value Box::Exists(const Napi::CallbackInfo &info) {
  std::string path = StrArg(info, 0);
  auto yes = std::make_shared<bool>(false);
  vsh_driver *d = drv_;
  VSH_TASK(
      ([d, path, yes](Failure &) { *yes = d->exists(d, path.c_str()) != 0; }),
      ([yes](Napi::Env env) -> Napi::Value {
        return Napi::Boolean::New(env, *yes);
      }));
}

Napi::Value Box::Mkdir(const Napi::CallbackInfo &info) {
  std::string path = StrArg(info, 0);
  bool rec = BoolArg(info, 1);
  vsh_driver *d = drv_;
  VSH_TASK(([d, path, rec](Failure &f) {
             vsh_drv_err err{};
             if (d->mkdir(d, path.c_str(), rec, &err) != 0)
               FailFromDriver(f, err);
           }),
           nullptr);
}

Napi::Value Box::Rm(const Napi::CallbackInfo &info) {
  std::string path = StrArg(info, 0);
  bool rec = BoolArg(info, 1), force = BoolArg(info, 2);
  vsh_driver *d = drv_;
  VSH_TASK(([d, path, rec, force](Failure &f) {
             vsh_drv_err err{};
             if (d->rm(d, path.c_str(), rec, force, &err) != 0)
               FailFromDriver(f, err);
           }),
           nullptr);
}

Napi::Value Box::Exec(const Napi::CallbackInfo &info) {
  if (closed_) {
    auto d = Napi::Promise::Deferred::New(info.Env());
    CheckOpen(info.Env(), d);
    return d.Promise();
  }
  return StartExec(this, info);
}

Napi::Value Box::TakeSnapshot(const Napi::CallbackInfo &info) {
  auto snap = std::make_shared<vsh_snapshot *>(nullptr);
  vsh_sandbox *sb = sb_;
  AddonData *ad = info.Env().GetInstanceData<AddonData>();
  VSH_TASK(([sb, snap](Failure &f) {
             vsh_status st = vsh_snapshot_take(sb, snap.get());
             if (st != VSH_OK)
               FailFromApi(f, sb, st, "snapshot");
           }),
           ([snap, ad](Napi::Env env) -> Napi::Value {
             Napi::Value v = ad->snapshot.New(
                 {Napi::External<vsh_snapshot>::New(env, *snap)});
             *snap = nullptr;
             return v;
           }));
}

Napi::Value Box::Restore(const Napi::CallbackInfo &info) {
  if (info.Length() < 1 || !info[0].IsObject())
    throw Napi::TypeError::New(info.Env(), "expected a snapshot");
  Napi::Object so = info[0].As<Napi::Object>();
  AddonData *ad = info.Env().GetInstanceData<AddonData>();
  if (!so.InstanceOf(ad->snapshot.Value()))
    throw Napi::TypeError::New(info.Env(), "expected a snapshot");
  vsh_snapshot *snap = Snapshot::Unwrap(so)->snap;
  vsh_sandbox *sb = sb_;
  auto d = Napi::Promise::Deferred::New(info.Env());
  if (!CheckOpen(info.Env(), d))
    return d.Promise();
  Task *t = new Task(
      this, d,
      [sb, snap](Failure &f) {
        vsh_status st = vsh_restore(sb, snap);
        if (st != VSH_OK)
          FailFromApi(f, sb, st, "restore");
      },
      nullptr);
  t->Keep(so);
  t->Queue();
  return d.Promise();
}

Napi::Value Box::Fork(const Napi::CallbackInfo &info) {
  auto out = std::make_shared<vsh_sandbox *>(nullptr);
  vsh_sandbox *sb = sb_;
  AddonData *ad = info.Env().GetInstanceData<AddonData>();
  std::shared_ptr<NetHolder> net = net_;
  std::string cwd = cwd_;
  VSH_TASK(([sb, out](Failure &f) {
             vsh_status st = vsh_fork(sb, out.get());
             if (st != VSH_OK)
               FailFromApi(f, sb, st, "fork");
           }),
           ([out, ad, net, cwd](Napi::Env env) -> Napi::Value {
             ForkInit fi{*out, net, cwd};
             *out = nullptr;
             return ad->box.New({Napi::External<ForkInit>::New(env, &fi)});
           }));
}

namespace {
int CollectTar(void *ud, const void *data, size_t len) {
  static_cast<std::string *>(ud)->append(static_cast<const char *>(data), len);
  return 0;
}
} // namespace

Napi::Value Box::Persist(const Napi::CallbackInfo &info) {
  bool has_dir = info.Length() > 0 && info[0].IsString();
  std::string dir = has_dir ? StrArg(info, 0) : std::string();
  auto skip = std::make_shared<std::vector<std::string>>();
  if (info.Length() > 1 && info[1].IsArray()) {
    Napi::Array a = info[1].As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); i++)
      skip->push_back(a.Get(i).ToString().Utf8Value());
  }
  auto tar = std::make_shared<std::string>();
  vsh_sandbox *sb = sb_;
  VSH_TASK(([sb, has_dir, dir, skip, tar](Failure &f) {
             std::vector<const char *> sp;
             for (auto &s : *skip)
               sp.push_back(s.c_str());
             sp.push_back(nullptr);
             vsh_status st = vsh_persist(sb, has_dir ? dir.c_str() : nullptr,
                                         sp.data(), CollectTar, tar.get());
             if (st != VSH_OK)
               FailFromApi(f, sb, st, "persist");
           }),
           ([tar](Napi::Env env) -> Napi::Value {
             return Napi::Buffer<char>::Copy(env, tar->data(), tar->size());
           }));
}

Napi::Value Box::Hydrate(const Napi::CallbackInfo &info) {
  if (info.Length() < 1 || !info[0].IsBuffer())
    throw Napi::TypeError::New(info.Env(), "expected a Buffer");
  Napi::Buffer<char> b = info[0].As<Napi::Buffer<char>>();
  auto tar = std::make_shared<std::string>(b.Data(), b.Length());
  bool has_dir = info.Length() > 1 && info[1].IsString();
  std::string dir = has_dir ? StrArg(info, 1) : std::string();
  vsh_sandbox *sb = sb_;
  VSH_TASK(([sb, tar, has_dir, dir](Failure &f) {
             vsh_status st = vsh_hydrate(sb, has_dir ? dir.c_str() : nullptr,
                                         tar->data(), tar->size());
             if (st != VSH_OK)
               FailFromApi(f, sb, st, "hydrate");
           }),
           nullptr);
}

} // namespace vshnode

namespace {
Napi::Object Init(Napi::Env env, Napi::Object exports) {
  auto *ad = new vshnode::AddonData();
  Napi::Function box = vshnode::Box::Define(env);
  Napi::Function snap = vshnode::Snapshot::Define(env);
  Napi::Function cancel = vshnode::Cancel::Define(env);
  ad->box = Napi::Persistent(box);
  ad->snapshot = Napi::Persistent(snap);
  ad->cancel = Napi::Persistent(cancel);
  env.SetInstanceData(ad);
  exports.Set("Box", box);
  exports.Set("Snapshot", snap);
  exports.Set("Cancel", cancel);
  exports.Set("version", Napi::String::New(env, vsh_version_string()));
  return exports;
}
} // namespace

NODE_API_MODULE(vsh, Init)
