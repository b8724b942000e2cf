// omniORB client that calls the echo server over IIOP on TLS, and only over TLS.
//
//   echo_tls_client -ior REF -ca PEM_FILE [-key PEM_FILE [-password P]] -message TEXT [-ORB... options]
//
// It sets omniORB's sslContext (the certificate authorities it trusts, and a key of its own if
// given) before ORB_init, and the client transport rule "* ssl": omniORB then connects only to the
// SSL addresses of the IOR (its TAG_SSL_SEC_TRANS component) and never falls back to plain IIOP.
// The server's certificate is verified against the CA file (omniORB's default verify mode).
// It echoes TEXT's bytes through Echo::echoBytes and prints one line on stdout:
//   ECHO <text>                              the echoed bytes, as text
//   RAISED <exception> minor=<m>             the call (or narrow) raised a CORBA exception
// Exit code 0 when the call returned, 1 when it raised, 2 on bad arguments.
#include <omniORB4/CORBA.h>
#include <omniORB4/sslContext.h>

#include <iostream>
#include <string>
#include <vector>

#include "echo.hh"

int main(int argc, char** argv) {
  std::string ref, ca, key, password, message;
  std::vector<char*> orb_args;
  orb_args.push_back(argv[0]);
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a == "-ior" && has_value) ref = argv[++i];
    else if (a == "-ca" && has_value) ca = argv[++i];
    else if (a == "-key" && has_value) key = argv[++i];
    else if (a == "-password" && has_value) password = argv[++i];
    else if (a == "-message" && has_value) message = argv[++i];
    else if (a.rfind("-ORB", 0) == 0) {
      orb_args.push_back(argv[i]);
      if (has_value) orb_args.push_back(argv[++i]);
    } else {
      std::cerr << "echo_tls_client: unknown or incomplete argument " << a
                << "\nusage: echo_tls_client -ior REF -ca PEM [-key PEM [-password P]] -message TEXT [-ORB...]\n";
      return 2;
    }
  }
  if (ref.empty() || ca.empty()) {
    std::cerr << "echo_tls_client: -ior REF and -ca PEM_FILE are required\n";
    return 2;
  }
  sslContext::certificate_authority_file = ca.c_str();
  if (!key.empty()) {
    sslContext::key_file = key.c_str();
    sslContext::key_file_password = password.c_str();
  }
  const char* options[][2] = {{"clientTransportRule", "* ssl"}, {nullptr, nullptr}};
  int orb_argc = (int)orb_args.size();
  orb_args.push_back(nullptr);

  CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_args.data(), "omniORB4", options);
  int status = 0;
  try {
    CORBA::Object_var obj = orb->string_to_object(ref.c_str());
    irmibench::Echo_var echo = irmibench::Echo::_narrow(obj);
    irmibench::Bytes data;
    data.length((CORBA::ULong)message.size());
    for (CORBA::ULong i = 0; i < data.length(); i++) data[i] = (CORBA::Octet)message[i];
    irmibench::Bytes_var reply = echo->echoBytes(data);
    std::string echoed(reply->length(), '\0');
    for (CORBA::ULong i = 0; i < reply->length(); i++) echoed[i] = (char)reply[i];
    std::cout << "ECHO " << echoed << std::endl;
  } catch (const CORBA::SystemException& e) {
    std::cout << "RAISED " << e._name() << " minor=" << e.minor() << std::endl;
    status = 1;
  } catch (const CORBA::Exception& e) {
    std::cout << "RAISED " << e._name() << std::endl;
    status = 1;
  }
  orb->destroy();
  return status;
}
