package org.irmi.sla;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Command-line check of SLA files: {@code java org.irmi.sla.SlaCheck a.yaml b.yaml}. Prints
 * {@code a.yaml: OK (service orders)} or every error as {@code file:line:col: message}; exits 0 if
 * all files are valid, 1 if any is not, 2 without arguments.
 */
public final class SlaCheck {

  private SlaCheck() {}

  /** Entry point. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Checks the files; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.println("usage: SlaCheck <sla.yaml>...");
      return 2;
    }
    int code = 0;
    for (String arg : args) {
      try {
        Sla sla = Sla.load(Path.of(arg));
        out.println(arg + ": OK (service " + sla.service() + ")");
      } catch (SlaException e) {
        err.println(e.getMessage());
        code = 1;
      }
    }
    return code;
  }
}
