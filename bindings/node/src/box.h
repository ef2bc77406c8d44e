// box.h - the native sandbox object of the Node.js binding.
//
// A Box owns one vsh sandbox behind the isolate driver (the driver owns the
// sandbox; the Box keeps the sandbox pointer for the calls the driver has
// no slot for: snapshot, fork, persist, hydrate and exec with streaming).
// Every call that may wait for the sandbox runs off the event loop: file
// calls on the libuv pool, exec on a thread of its own so that long
// commands never starve the pool. The sandbox is destroyed only when the
// last call in flight has finished, whatever the order of close() and
// garbage collection.
#ifndef VSH_NODE_BOX_H
#define VSH_NODE_BOX_H

#include <napi.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "vsh.h"

namespace vshnode {

// Strings and structs a network policy points to. libvsh keeps the policy
// pointer for forks, so it lives as long as the last sandbox sharing it.
struct NetHolder {
  std::vector<std::string> strings; // stable storage (reserved up front)
  std::vector<std::vector<vsh_http_header>> headers;
  std::vector<vsh_net_rule> rules;
  std::vector<const char *> methods;
  vsh_net_policy policy{};
};

// What a failed call reports to JavaScript: a Node-style error is built
// from it in lib/errors.js.
struct Failure {
  bool failed = false;
  int kind = 0; // vsh_drv_error, or 0 for an API status
  int code = 0; // errno value
  std::string message;
  std::string syscall, path; // when the message is to be composed in JS
};

// A cancel token shared by its JavaScript handle and the exec using it, so
// that neither can free it under the other.
struct Token {
  vsh_cancel *c = vsh_cancel_new();
  ~Token() { vsh_cancel_free(c); }
};

class Cancel : public Napi::ObjectWrap<Cancel> {
public:
  static Napi::Function Define(Napi::Env env);
  explicit Cancel(const Napi::CallbackInfo &info);
  std::shared_ptr<Token> token() const { return token_; }

private:
  Napi::Value Set(const Napi::CallbackInfo &info);
  std::shared_ptr<Token> token_;
};

class Snapshot : public Napi::ObjectWrap<Snapshot> {
public:
  static Napi::Function Define(Napi::Env env);
  explicit Snapshot(const Napi::CallbackInfo &info);
  ~Snapshot() override;
  vsh_snapshot *snap = nullptr;
};

class Box : public Napi::ObjectWrap<Box> {
public:
  static Napi::Function Define(Napi::Env env);
  explicit Box(const Napi::CallbackInfo &info);
  ~Box() override;

  vsh_sandbox *sb() const { return sb_; }
  vsh_driver *drv() const { return drv_; }

  // Bookkeeping of calls in flight (main thread only).
  void Enter();
  void Leave();
  bool closed() const { return closed_; }
  void AddCancel(vsh_cancel *c) { running_.insert(c); }
  void DropCancel(vsh_cancel *c) { running_.erase(c); }

private:
  Napi::Value ReadFile(const Napi::CallbackInfo &info);
  Napi::Value WriteFile(const Napi::CallbackInfo &info);
  Napi::Value Stat(const Napi::CallbackInfo &info);
  Napi::Value Readdir(const Napi::CallbackInfo &info);
  Napi::Value Exists(const Napi::CallbackInfo &info);
  Napi::Value Mkdir(const Napi::CallbackInfo &info);
  Napi::Value Rm(const Napi::CallbackInfo &info);
  Napi::Value Exec(const Napi::CallbackInfo &info);
  Napi::Value TakeSnapshot(const Napi::CallbackInfo &info);
  Napi::Value Restore(const Napi::CallbackInfo &info);
  Napi::Value Fork(const Napi::CallbackInfo &info);
  Napi::Value Persist(const Napi::CallbackInfo &info);
  Napi::Value Hydrate(const Napi::CallbackInfo &info);
  Napi::Value Close(const Napi::CallbackInfo &info);
  Napi::Value Cwd(const Napi::CallbackInfo &info);

  void Open(const Napi::Object &opts);
  void Destroy();
  bool CheckOpen(const Napi::Env &env, Napi::Promise::Deferred &d);

  vsh_sandbox *sb_ = nullptr;
  vsh_driver *drv_ = nullptr;
  std::shared_ptr<NetHolder> net_;
  std::string cwd_;
  int inflight_ = 0;
  bool closed_ = false;
  std::set<vsh_cancel *> running_;
};

// Shared by the translation units.
Napi::Error MakeError(Napi::Env env, const Failure &f);
void FailFromDriver(Failure &f, const vsh_drv_err &err);
void FailFromApi(Failure &f, vsh_sandbox *sb, vsh_status st, const char *what);
Napi::Value StartExec(Box *box, const Napi::CallbackInfo &info);

struct AddonData {
  Napi::FunctionReference box, snapshot, cancel;
};

} // namespace vshnode

#endif
