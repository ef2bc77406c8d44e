// exec.cc - exec on a thread of its own, output streamed to JavaScript.
//
// The command runs on a dedicated thread (a long command must not hold a
// libuv pool thread that file calls need). Output chunks and the final
// result travel to the main thread through one thread-safe function, in
// order, so every chunk reaches the callback before the promise settles.
#include "box.h"

#include <cerrno>
#include <cstring>
#include <thread>

namespace vshnode {

namespace {

struct ExecJob {
  Box *box = nullptr;
  Napi::ObjectReference box_ref;
  std::shared_ptr<Token> token;
  Napi::Promise::Deferred deferred;
  Napi::ThreadSafeFunction tsfn;
  vsh_sandbox *sb = nullptr;
  vsh_cancel *cancel = nullptr;
  bool stream = false;

  std::string script;
  bool has_cwd = false;
  std::string cwd;
  std::vector<std::string> env;
  int64_t timeout_ms = 0;
  bool has_stdin = false;
  std::string stdin_data;

  vsh_result res{};
  std::string err_note; // appended to stderr (the timeout note)
  bool aborted = false;
  Failure fail;

  explicit ExecJob(Napi::Env env)
      : deferred(Napi::Promise::Deferred::New(env)) {}
};

struct Item {
  ExecJob *job;
  int fd; // 1 or 2 for output; 0 when the exec is over
  std::string data;
};

bool IsIdent(const std::string &s, size_t n) {
  if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
    return false;
  for (size_t i = 1; i < n; i++)
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
      return false;
  return true;
}

void Deliver(Napi::Env env, Napi::Function cb, Item *it);

void OnOutput(void *ud, int fd, const void *data, size_t len) {
  ExecJob *job = static_cast<ExecJob *>(ud);
  Item *it = new Item{job, fd, std::string((const char *)data, len)};
  if (job->tsfn.NonBlockingCall(it, Deliver) != napi_ok)
    delete it;
}

void Deliver(Napi::Env env, Napi::Function cb, Item *it) {
  ExecJob *job = it->job;
  if (it->fd != 0) {
    if (env != nullptr && job->stream && !cb.IsEmpty()) {
      Napi::HandleScope scope(env);
      Napi::Buffer<char> b =
          Napi::Buffer<char>::Copy(env, it->data.data(), it->data.size());
      try {
        cb.Call({Napi::Number::New(env, it->fd), b});
      } catch (const Napi::Error &e) {
        // A throwing callback must not end the exec or the process.
        (void)e;
      }
    }
    delete it;
    return;
  }
  delete it;
  if (env != nullptr) {
    Napi::HandleScope scope(env);
    if (job->aborted) {
      Failure f;
      f.failed = true;
      f.kind = VSH_DRV_ABORT;
      f.message = "The operation was aborted.";
      job->deferred.Reject(MakeError(env, f).Value());
    } else if (job->fail.failed) {
      job->deferred.Reject(MakeError(env, job->fail).Value());
    } else {
      Napi::Object o = Napi::Object::New(env);
      const vsh_result &r = job->res;
      o.Set("stdout", Napi::Buffer<char>::Copy(env, r.out ? r.out : "",
                                               r.out ? r.out_len : 0));
      std::string err(r.err ? r.err : "", r.err ? r.err_len : 0);
      err += job->err_note;
      o.Set("stderr", Napi::Buffer<char>::Copy(env, err.data(), err.size()));
      o.Set("exitCode", Napi::Number::New(env, r.status));
      o.Set("flags", Napi::Number::New(env, r.flags));
      job->deferred.Resolve(o);
    }
    job->box->DropCancel(job->cancel);
    job->box->Leave();
  }
  vsh_result_free(&job->res);
  delete job;
}

// The timeout note the contract asks for, unless the shell wrote one.
void NoteTimeout(ExecJob *job, int64_t ms) {
  const vsh_result &r = job->res;
  std::string err(r.err ? r.err : "", r.err ? r.err_len : 0);
  if (err.find("timed out") != std::string::npos ||
      err.find("timeout") != std::string::npos)
    return;
  if (!err.empty() && err.back() != '\n')
    job->err_note = "\n";
  job->err_note +=
      "vsh: command timed out after " + std::to_string(ms) + " ms\n";
}

void Finish(ExecJob *job);

void Run(ExecJob *job) {
  // A key set to "unset" removes the variable: an `unset -v` on the first
  // line of the script (shell state is fresh for every exec).
  std::string prefix;
  std::vector<const char *> envp;
  for (const std::string &kv : job->env) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos)
      continue;
    if (kv.compare(eq + 1, std::string::npos, "unset") == 0) {
      if (IsIdent(kv, eq))
        prefix += " " + kv.substr(0, eq);
    } else {
      envp.push_back(kv.c_str());
    }
  }
  envp.push_back(nullptr);
  std::string script =
      prefix.empty() ? job->script : "unset -v" + prefix + "; " + job->script;

  // A cwd that is missing or not a directory fails the exec, as a process
  // spawned there would, rather than running somewhere else.
  if (job->has_cwd) {
    vsh_stat st{};
    vsh_status rc = vsh_stat_path(job->sb, job->cwd.c_str(), &st);
    int code = rc == VSH_OK ? (st.type == VSH_TYPE_DIR ? 0 : ENOTDIR)
                            : vsh_errcode(job->sb);
    if (rc != VSH_OK && code == 0)
      code = ENOENT;
    if (code) {
      job->fail.failed = true;
      job->fail.kind = VSH_DRV_ERRNO;
      job->fail.code = code;
      job->fail.syscall = "chdir";
      job->fail.path = job->cwd;
      Finish(job);
      return;
    }
  }

  vsh_exec_opts eo{};
  eo.cwd = job->has_cwd ? job->cwd.c_str() : nullptr;
  eo.env = envp.size() > 1 ? envp.data() : nullptr;
  eo.timeout_ms = job->timeout_ms;
  eo.cancel = job->cancel;
  if (job->has_stdin) {
    eo.stdin_data = job->stdin_data.data();
    eo.stdin_len = job->stdin_data.size();
  }
  if (job->stream) {
    eo.on_output = OnOutput;
    eo.output_ud = job;
  }
  vsh_status st =
      vsh_exec_n(job->sb, script.data(), script.size(), &eo, &job->res);
  if (st == VSH_ABORT ||
      (st == VSH_OK && (job->res.flags & VSH_RESULT_CANCELLED))) {
    job->aborted = true;
  } else if (st != VSH_OK) {
    if (st == VSH_FS && job->has_cwd) {
      job->fail.failed = true;
      job->fail.kind = VSH_DRV_ERRNO;
      job->fail.code = vsh_errcode(job->sb);
      job->fail.syscall = "chdir";
      job->fail.path = job->cwd;
      job->fail.message = "";
    } else {
      FailFromApi(job->fail, job->sb, st, "exec");
    }
  } else if (job->res.flags & VSH_RESULT_TIMED_OUT) {
    job->res.status = 124;
    int64_t ms = job->timeout_ms;
    NoteTimeout(job, ms);
  }
  Finish(job);
}

// Hand the job back to the main thread.
void Finish(ExecJob *job) {
  // After the last item is queued the job belongs to the main thread.
  Napi::ThreadSafeFunction tsfn = job->tsfn;
  Item *done = new Item{job, 0, std::string()};
  if (tsfn.BlockingCall(done, Deliver) != napi_ok)
    delete done; // the environment is going away: nobody reads the result
  tsfn.Release();
}

} // namespace

// exec(script, {cwd, env: string[], timeoutMs, stdin}, cancel, onOutput)
Napi::Value StartExec(Box *box, const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsString() || !info[1].IsObject() ||
      !info[2].IsObject())
    throw Napi::TypeError::New(env, "exec(script, options, cancel)");
  AddonData *ad = env.GetInstanceData<AddonData>();
  Napi::Object cobj = info[2].As<Napi::Object>();
  if (!cobj.InstanceOf(ad->cancel.Value()))
    throw Napi::TypeError::New(env, "exec: expected a cancel token");

  ExecJob *job = new ExecJob(env);
  job->box = box;
  job->sb = box->sb();
  job->script = info[0].As<Napi::String>().Utf8Value();
  Napi::Object o = info[1].As<Napi::Object>();
  if (o.Get("cwd").IsString()) {
    job->has_cwd = true;
    job->cwd = o.Get("cwd").As<Napi::String>().Utf8Value();
  }
  if (o.Get("env").IsArray()) {
    Napi::Array a = o.Get("env").As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); i++)
      job->env.push_back(a.Get(i).ToString().Utf8Value());
  }
  if (o.Get("timeoutMs").IsNumber()) {
    double t = o.Get("timeoutMs").As<Napi::Number>().DoubleValue();
    job->timeout_ms = t > 0 ? (t < 9e15 ? (int64_t)t : (int64_t)9e15) : 0;
  }
  if (o.Get("stdin").IsBuffer()) {
    Napi::Buffer<char> b = o.Get("stdin").As<Napi::Buffer<char>>();
    job->has_stdin = true;
    job->stdin_data.assign(b.Data(), b.Length());
  }
  job->token = Cancel::Unwrap(cobj)->token();
  job->cancel = job->token->c;
  job->box_ref = Napi::Persistent(box->Value());

  Napi::Function cb;
  if (info.Length() > 3 && info[3].IsFunction()) {
    cb = info[3].As<Napi::Function>();
    job->stream = true;
  } else {
    cb = Napi::Function::New(env, [](const Napi::CallbackInfo &) {});
  }
  job->tsfn = Napi::ThreadSafeFunction::New(env, cb, "vsh-exec", 0, 1);
  Napi::Promise p = job->deferred.Promise();
  box->Enter();
  box->AddCancel(job->cancel);
  try {
    std::thread([job]() { Run(job); }).detach();
  } catch (const std::exception &) {
    box->DropCancel(job->cancel);
    box->Leave();
    job->tsfn.Release();
    delete job;
    throw Napi::Error::New(env, "exec: cannot start a thread");
  }
  return p;
}

} // namespace vshnode
