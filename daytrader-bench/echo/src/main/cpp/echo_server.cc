// omniORB C++ echo server: the server a user would pick instead of a Java ORB, as a variant of
// the echo benchmark (variant "omniorb", see org.irmi.bench.echo.OrbVariants#omniorb).
//
//   echo_server -ior-file F [-host 127.0.0.1] [-port 0] [-ORB... options passed to omniORB]
//
// It serves one irmibench::Echo object on the root POA, listening on HOST:PORT only (port 0: an
// ephemeral one), writes the object's IOR to F atomically (a temporary file in F's directory, then
// rename, so readers never see half an IOR), prints
//   ECHO-SERVER ready variant=omniorb orb=omniORB-<version> pid=<pid> ior-file=F nofile=<limit> args=<-ORB...>
// and serves until it is killed (SIGTERM or SIGKILL; it keeps no state worth saving).
// How omniORB serves connections is left to the -ORB options; the benchmark's variant passes
// -ORBthreadPerConnectionPolicy 0 -ORBmaxServerThreadPoolSize 20 (a thread pool, as a user picks
// for thousands of connections). Before anything else it raises its open-files soft limit to the
// hard limit, as the JVM does for the Java servers, so it can hold 10,000 connections.
// Exit code 2 on bad arguments, 1 when it cannot start.
#include <omniORB4/CORBA.h>

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "echo.hh"

namespace {

// THREAD-SAFE: omniORB calls it from any number of its threads at once; it keeps no state.
class EchoServant : public POA_irmibench::Echo {
 public:
  irmibench::Bytes* echoBytes(const irmibench::Bytes& data) override {
    // The in argument belongs to omniORB: the reply is a copy, as any omniORB servant returns it.
    return new irmibench::Bytes(data);
  }

  void ping() override {}

  void fail(const char* kind, CORBA::ULong minor) override {
    std::string k = kind;
    if (k == "TRANSIENT") throw CORBA::TRANSIENT(minor, CORBA::COMPLETED_NO);
    if (k == "NO_RESOURCES") throw CORBA::NO_RESOURCES(minor, CORBA::COMPLETED_NO);
    if (k == "BAD_PARAM") throw CORBA::BAD_PARAM(minor, CORBA::COMPLETED_NO);
    if (k == "USER") throw irmibench::EchoRefused("refused as asked");
    throw CORBA::BAD_PARAM(0, CORBA::COMPLETED_NO);
  }
};

// Raises the soft open-files limit to the hard one; returns the soft limit now in force.
rlim_t RaiseOpenFilesLimit() {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 0;
  if (rl.rlim_cur < rl.rlim_max) {
    rlim_t wanted = rl.rlim_max;
    rl.rlim_cur = wanted;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) getrlimit(RLIMIT_NOFILE, &rl);
  }
  return rl.rlim_cur;
}

bool WriteAtomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return false;
    out << text << "\n";
    out.flush();
    if (!out) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

int Usage(const std::string& msg) {
  std::cerr << "echo_server: " << msg << "\n"
            << "usage: echo_server -ior-file F [-host 127.0.0.1] [-port 0] [-ORB... options]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  rlim_t nofile = RaiseOpenFilesLimit();
  // A client that goes away mid-reply must not end the server.
  std::signal(SIGPIPE, SIG_IGN);

  std::string ior_file;
  std::string host = "127.0.0.1";
  long port = 0;
  std::vector<char*> user_orb_args;
  std::string shown_args;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a == "-ior-file" && has_value) ior_file = argv[++i];
    else if (a == "-host" && has_value) host = argv[++i];
    else if (a == "-port" && has_value) port = std::atol(argv[++i]);
    else if (a.rfind("-ORB", 0) == 0 && has_value) {
      user_orb_args.push_back(argv[i]);
      user_orb_args.push_back(argv[++i]);
      shown_args += (shown_args.empty() ? "" : " ") + a + " " + user_orb_args.back();
    } else return Usage("unknown or incomplete argument " + a);
  }
  if (ior_file.empty()) return Usage("-ior-file is required");
  if (port < 0 || port > 65535) return Usage("-port must be in 0..65535");

  // Listen on HOST only; "giop:tcp:HOST:" picks an ephemeral port.
  std::string endpoint = "giop:tcp:" + host + ":" + (port > 0 ? std::to_string(port) : std::string());
  std::vector<char*> orb_args;
  orb_args.push_back(argv[0]);
  char opt_endpoint[] = "-ORBendPoint";
  orb_args.push_back(opt_endpoint);
  orb_args.push_back(const_cast<char*>(endpoint.c_str()));
  orb_args.insert(orb_args.end(), user_orb_args.begin(), user_orb_args.end());
  int orb_argc = (int)orb_args.size();
  orb_args.push_back(nullptr);

  try {
    CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_args.data());
    CORBA::Object_var poa_obj = orb->resolve_initial_references("RootPOA");
    PortableServer::POA_var root = PortableServer::POA::_narrow(poa_obj);
    EchoServant* servant = new EchoServant();
    PortableServer::ObjectId_var id = root->activate_object(servant);
    servant->_remove_ref();  // the POA holds it now
    CORBA::Object_var ref = root->id_to_reference(id.in());
    root->the_POAManager()->activate();
    CORBA::String_var ior = orb->object_to_string(ref);
    if (!WriteAtomically(ior_file, ior.in())) {
      std::cerr << "echo_server: cannot write the IOR to " << ior_file << ": " << std::strerror(errno) << "\n";
      return 1;
    }
    std::cout << "ECHO-SERVER ready variant=omniorb orb=omniORB-" << omniORB::versionString()
              << " pid=" << getpid() << " ior-file=" << ior_file << " nofile=" << nofile
              << " args=" << shown_args << std::endl;
    orb->run();
    orb->destroy();
  } catch (const CORBA::Exception& e) {
    std::cerr << "echo_server: cannot start: " << e._name() << "\n";
    return 1;
  }
  return 0;
}
