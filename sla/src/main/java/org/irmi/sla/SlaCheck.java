package org.irmi.sla;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./irmi sla-check FILE...}: validates SLA files with {@link Sla#load(Path)}, the loader the
 * ORB uses. Prints {@code a.yaml: OK (service orders)} for a valid file and every error of an invalid
 * one as {@code file:line:col: message}, the file named as it was given (so an editor or a CI log can
 * jump to it). Exits 0 if all files are valid, 1 if any is not, 2 on a usage error (no file, an
 * unknown option).
 *
 * <p>Needs picocli on the class path (an optional dependency of this module: the SLA API does not).
 */
@Command(name = "./irmi sla-check", sortOptions = false, usageHelpAutoWidth = true,
    description = {"Checks SLA YAML files with the loader the ORB uses, and reports every error as file:line:col: message.",
        "Exit status: 0 all files valid, 1 a file has errors, 2 usage error."},
    footer = {"", "Example: ./irmi sla-check sla/examples/orders.yaml my-service.yaml",
        "The keys, their units and bounds: docs/sla-reference.md."})
public final class SlaCheck implements Callable<Integer> {

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "SLA YAML files to check")
  private List<String> files;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
  private boolean help;

  @Spec
  private CommandLine.Model.CommandSpec spec;

  private SlaCheck() {}

  /** Entry point. */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command, printing to {@code System.out} and {@code System.err}; {@code execute(args)} runs it. */
  public static CommandLine commandLine() {
    return new CommandLine(new SlaCheck());
  }

  /** Checks the files given as {@code args}, printing to {@code out} and {@code err}; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CommandLine cl = commandLine();
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    return cl.execute(args);
  }

  /**
   * System property: the directory a relative FILE is read from, the caller's working directory
   * that {@code ./irmi} passes on (it runs Java from the repository's root). Unset: the JVM's own.
   */
  public static final String CALLER_DIR_PROPERTY = "irmi.callerDir";

  /**
   * A file named on a command line: {@code file} as given, or against {@link #CALLER_DIR_PROPERTY}
   * when it is relative and that is set.
   */
  public static Path resolve(String file) {
    Path path = Path.of(file);
    String callerDir = System.getProperty(CALLER_DIR_PROPERTY);
    return path.isAbsolute() || callerDir == null || callerDir.isEmpty() ? path : Path.of(callerDir).resolve(path);
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int code = 0;
    for (String file : files) {
      try {
        Sla sla = Sla.load(resolve(file));
        out.println(file + ": OK (service " + sla.service() + ")");
      } catch (SlaException e) {
        for (SlaError error : e.errors()) {
          err.println(file + ":" + error.line() + ":" + error.column() + ": " + error.message());
        }
        code = 1;
      }
    }
    out.flush();
    err.flush();
    return code;
  }
}
