// omniORB interop client for the echo server: an independent ORB calling a Java server.
//
//   echo_interop_client -ior REF [-size BYTES ...] [-buffered-size BYTES] [-ORB... options]
//
// REF is an IOR or a corbaloc URL. For each size (default 0 100 4096 65536 1048576) it sends a
// patterned octet sequence through Echo::echoBytes and checks every echoed byte. omniORB sends a
// large octet sequence straight from the caller's memory, so a 1 MB request goes out as one big
// GIOP 1.2 Request with the "more fragments" flag plus one short Fragment. With -buffered-size B it
// then echoes B bytes once more with direct sending switched off, so the request is staged through
// omniORB's 8 KB buffers and goes out as one Fragment per buffer (about 128 for 1 MB). Then it calls
// ping(), and fail() for three system exceptions and the user exception, checking the exception
// type, the minor code and the completion status. One line per check on stdout:
//   CHECK ok|FAIL <name> <detail>
// and last:  INTEROP passed=P failed=F
// Exit code 0 when every check passed, 1 when one failed, 2 on bad arguments.
#include <omniORB4/CORBA.h>
#include <omniORB4/internal/giopStream.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "echo.hh"

namespace {

int passed = 0;
int failed = 0;

void Check(bool ok, const std::string& name, const std::string& detail) {
  (ok ? passed : failed)++;
  std::cout << "CHECK " << (ok ? "ok " : "FAIL ") << name << " " << detail << std::endl;
}

CORBA::Octet PatternByte(CORBA::ULong i, CORBA::ULong size) {
  return (CORBA::Octet)((i * 131u + size * 7u + (i >> 8)) & 0xff);
}

void EchoSize(irmibench::Echo_ptr echo, CORBA::ULong size) {
  std::string name = "echo-" + std::to_string(size);
  try {
    irmibench::Bytes data;
    data.length(size);
    for (CORBA::ULong i = 0; i < size; i++) data[i] = PatternByte(i, size);
    irmibench::Bytes_var reply = echo->echoBytes(data);
    if (reply->length() != size) {
      Check(false, name, "echoed length " + std::to_string(reply->length()));
      return;
    }
    for (CORBA::ULong i = 0; i < size; i++) {
      if (reply[i] != PatternByte(i, size)) {
        Check(false, name, "byte " + std::to_string(i) + " differs");
        return;
      }
    }
    Check(true, name, "all " + std::to_string(size) + " bytes echoed");
  } catch (const CORBA::Exception& e) {
    Check(false, name, std::string("raised ") + e._name());
  }
}

template <typename Ex>
void ExpectSystemException(irmibench::Echo_ptr echo, const char* kind, CORBA::ULong minor) {
  std::string name = std::string("fail-") + kind;
  try {
    echo->fail(kind, minor);
    Check(false, name, "returned normally");
  } catch (const Ex& e) {
    bool ok = e.minor() == minor && e.completed() == CORBA::COMPLETED_NO;
    Check(ok, name, std::string(e._name()) + " minor=" + std::to_string(e.minor()) +
                        " completed=" + std::to_string((int)e.completed()));
  } catch (const CORBA::Exception& e) {
    Check(false, name, std::string("wrong exception ") + e._name());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string ref;
  std::vector<CORBA::ULong> sizes;
  long buffered_size = -1;
  std::vector<char*> orb_args;
  orb_args.push_back(argv[0]);
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a == "-ior" && has_value) ref = argv[++i];
    else if (a == "-buffered-size" && has_value) buffered_size = std::atol(argv[++i]);
    else if (a == "-size" && has_value) sizes.push_back((CORBA::ULong)std::strtoul(argv[++i], nullptr, 10));
    else if (a.rfind("-ORB", 0) == 0) {
      orb_args.push_back(argv[i]);
      if (has_value) orb_args.push_back(argv[++i]);
    } else {
      std::cerr << "echo_interop_client: unknown or incomplete argument " << a
                << "\nusage: echo_interop_client -ior REF [-size BYTES ...] [-buffered-size BYTES] [-ORB...]\n";
      return 2;
    }
  }
  if (ref.empty()) {
    std::cerr << "echo_interop_client: -ior REF is required\n";
    return 2;
  }
  if (sizes.empty()) sizes = {0, 100, 4096, 65536, 1048576};
  int orb_argc = (int)orb_args.size();
  orb_args.push_back(nullptr);

  CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_args.data());
  try {
    CORBA::Object_var obj = orb->string_to_object(ref.c_str());
    irmibench::Echo_var echo = irmibench::Echo::_narrow(obj);
    if (CORBA::is_nil(echo)) {
      Check(false, "narrow", "reference is not an irmibench::Echo");
    } else {
      echo->ping();
      Check(true, "ping", "returned");
      for (CORBA::ULong size : sizes) EchoSize(echo, size);
      if (buffered_size >= 0) {
        CORBA::ULong saved = omni::giopStream::directSendCutOff;
        omni::giopStream::directSendCutOff = 0xffffffffu;
        std::cout << "BUFFERED size=" << buffered_size << std::endl;
        EchoSize(echo, (CORBA::ULong)buffered_size);
        omni::giopStream::directSendCutOff = saved;
      }
      ExpectSystemException<CORBA::TRANSIENT>(echo, "TRANSIENT", 0x49520001u);
      ExpectSystemException<CORBA::NO_RESOURCES>(echo, "NO_RESOURCES", 7u);
      ExpectSystemException<CORBA::BAD_PARAM>(echo, "BAD_PARAM", 42u);
      try {
        echo->fail("USER", 0);
        Check(false, "fail-USER", "returned normally");
      } catch (const irmibench::EchoRefused& e) {
        Check(std::string(e.reason.in()) == "refused as asked", "fail-USER",
              std::string("EchoRefused reason=") + e.reason.in());
      }
      // The connection must still serve calls after the exceptions.
      EchoSize(echo, 100);
    }
  } catch (const CORBA::Exception& e) {
    Check(false, "call", std::string("raised ") + e._name());
  }
  std::cout << "INTEROP passed=" << passed << " failed=" << failed << std::endl;
  try {
    orb->destroy();
  } catch (...) {
  }
  return failed == 0 ? 0 : 1;
}
