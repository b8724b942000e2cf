package org.irmi.sla.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.irmi.sla.CausalPair;
import org.irmi.sla.IsolationPointsConfig;
import org.irmi.sla.MonitorsConfig;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.ServiceObjective;
import org.irmi.sla.Sla;
import org.irmi.sla.SlaError;
import org.irmi.sla.SlaException;
import org.irmi.sla.WindowConfig;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Binds SLA YAML onto the immutable config objects: the file, its root, objectives and monitors here;
 * the isolation points in {@link IsolationPointsBinder}, their actions in {@link ActionBinder}. Parses with SnakeYAML Engine's composer (so every
 * node keeps its line and column), walks the node tree section by section, and collects every error
 * with its position. Only a file without errors produces an {@link Sla}; otherwise one
 * {@link SlaException} carries all errors in file order. Nothing is applied half-way because nothing
 * is applied here at all: the caller gets a whole {@code Sla} or none.
 */
public final class SlaBinder {

  private static final int MAX_FILE_CHARS = 1 << 20;

  private final BindErrors errors;
  private final SectionReader reader;
  private final IsolationPointsBinder pointBinder;

  private SlaBinder(String source) {
    this.errors = new BindErrors(source);
    this.reader = new SectionReader(errors);
    this.pointBinder = new IsolationPointsBinder(reader, new ActionBinder(reader));
  }

  /**
   * Parses and binds.
   *
   * @throws SlaException with every error found, in file order
   */
  public static Sla bind(String yaml, String source) {
    return new SlaBinder(source).run(yaml);
  }

  /** Deepest nesting of flow collections ({@code [ ]} and {@code { }}) an SLA may use. */
  static final int MAX_FLOW_DEPTH = 64;

  /**
   * The line where flow collections first nest deeper than {@link #MAX_FLOW_DEPTH}, or 0: the YAML
   * composer is recursive, and "[[[[...", a few kilobytes of it, overflows its stack.
   * Quoted text and comments are skipped.
   */
  static int deepFlowNestingLine(String yaml) {
    int depth = 0;
    int line = 1;
    char quote = 0;
    boolean comment = false;
    for (int i = 0; i < yaml.length(); i++) {
      char ch = yaml.charAt(i);
      if (ch == '\n') {
        line++;
        comment = false;
        continue;
      }
      if (comment) {
        continue;
      }
      if (quote != 0) {
        if (ch == quote) {
          quote = 0;
        }
        continue;
      }
      switch (ch) {
        case '\'', '"' -> quote = ch;
        case '#' -> comment = i == 0 || Character.isWhitespace(yaml.charAt(i - 1));
        case '[', '{' -> {
          if (++depth > MAX_FLOW_DEPTH) {
            return line;
          }
        }
        case ']', '}' -> depth = Math.max(0, depth - 1);
        default -> {
        }
      }
    }
    return 0;
  }

  private Sla run(String yaml) {
    if (yaml.length() > MAX_FILE_CHARS) {
      errors.at((Mark) null, "", "file is larger than 1 MiB; an SLA file is a few hundred lines");
      throw exception();
    }
    int deepLine = deepFlowNestingLine(yaml);
    if (deepLine > 0) {
      errors.at(deepLine, 1, "", "collections nested more than " + MAX_FLOW_DEPTH + " deep; an SLA needs a few levels");
      throw exception();
    }
    Optional<Node> root;
    try {
      LoadSettings settings = LoadSettings.builder().setLabel(errors.source).setMaxAliasesForCollections(50).build();
      root = new Compose(settings).composeString(yaml);
    } catch (StackOverflowError e) {
      errors.at((Mark) null, "", "the YAML is nested too deep to read; an SLA needs a few levels");
      throw exception();
    } catch (MarkedYamlEngineException e) {
      Mark m = e.getProblemMark().orElse(e.getContextMark().orElse(null));
      String context = e.getContext() == null ? "" : e.getContext() + ": ";
      String started = "";
      Optional<Mark> cm = e.getContextMark();
      if (cm.isPresent() && m != null && cm.get().getLine() != m.getLine()) {
        started = " (the construct began at line " + (cm.get().getLine() + 1) + ", column " + (cm.get().getColumn() + 1) + ")";
      }
      errors.at(m, "", "YAML syntax error: " + context + e.getProblem().trim() + started);
      throw exception();
    } catch (YamlEngineException e) {
      errors.at((Mark) null, "", "YAML error: " + e.getMessage());
      throw exception();
    }
    if (root.isEmpty() || SectionReader.isNull(root.get())) {
      errors.at((Mark) null, "", "the file is empty; an SLA needs at least 'service: <name>'");
      throw exception();
    }
    Sla sla = root(root.get());
    if (errors.size() > 0 || sla == null) {
      if (errors.size() == 0) {
        errors.at(root.get(), "", "the SLA could not be built");
      }
      throw exception();
    }
    return sla;
  }

  private SlaException exception() {
    List<SlaError> sorted = new ArrayList<>(errors.list);
    sorted.sort(Comparator.comparingInt(SlaError::line).thenComparingInt(SlaError::column));
    return new SlaException(sorted);
  }

  // ---------------------------------------------------------------- root

  private Sla root(Node node) {
    Section s = Section.open(errors, node, "", SlaKeys.keys(SlaKeys.ROOT),
        "service, objectives, monitors, isolationPoints");
    if (s == null) {
      return null;
    }
    String service = s.requiredString("service");
    List<ServiceObjective> objectives = reader.itemList(s, "objectives", SlaKeys.OBJECTIVE, "objectives", this::objective);
    MonitorsConfig monitors = s.keys().contains("monitors")
        ? reader.sub(s, "monitors", SlaKeys.MONITORS, "windows and causal pairs", this::monitors)
        : MonitorsConfig.ofDefaults();
    IsolationPointsConfig points = s.keys().contains("isolationPoints")
        ? reader.sub(s, "isolationPoints", SlaKeys.ISOLATION_POINTS, "slowClient, poison, crosstalk", pointBinder::isolationPoints)
        : IsolationPointsConfig.NONE;
    if (service == null || objectives == null || monitors == null || points == null) {
      return null;
    }
    return s.construct(() -> new Sla(service, objectives, monitors, points));
  }

  private ServiceObjective objective(Section s) {
    OperationPattern op = s.has("operation") ? s.pattern("operation") : null;
    if (!s.keys().contains("operation")) {
      s.missing("operation");
    }
    Duration p99 = s.duration("p99Latency");
    Double min = s.perSecond("minThroughput");
    Double err = s.percent("maxErrorRate");
    if (op == null) {
      return null;
    }
    return s.construct(() -> new ServiceObjective(op, Optional.ofNullable(p99),
        min == null ? OptionalDouble.empty() : OptionalDouble.of(min),
        err == null ? OptionalDouble.empty() : OptionalDouble.of(err)));
  }

  // ---------------------------------------------------------------- monitors

  private MonitorsConfig monitors(Section s) {
    MonitorsConfig.Builder b = MonitorsConfig.custom();
    WindowConfig w;
    if ((w = reader.window(s, "requestRates", MonitorsConfig.DEFAULT_REQUEST_RATES)) != null) {
      b.requestRates(w);
    }
    if ((w = reader.window(s, "localResources", MonitorsConfig.DEFAULT_LOCAL_RESOURCES)) != null) {
      b.localResources(w);
    }
    if ((w = reader.window(s, "remoteResources", MonitorsConfig.DEFAULT_REMOTE_RESOURCES)) != null) {
      b.remoteResources(w);
    }
    if ((w = reader.window(s, "latency", MonitorsConfig.DEFAULT_LATENCY)) != null) {
      b.latency(w);
    }
    Boolean cost = s.bool("perRequestCost");
    if (cost != null) {
      b.perRequestCost(cost);
    }
    List<CausalPair> pairs = reader.itemList(s, "causalPairs", SlaKeys.CAUSAL_PAIR, "causal pairs", this::causalPair);
    if (pairs != null) {
      pairs.forEach(b::addCausalPair);
    }
    return s.construct(b::build);
  }

  private CausalPair causalPair(Section s) {
    OperationPattern in = reader.requiredPattern(s, "incoming");
    OperationPattern target = reader.requiredPattern(s, "target");
    OperationPattern out = reader.requiredPattern(s, "outgoing");
    Double fanout = s.number("fanout");
    if (in == null || target == null || out == null) {
      return null;
    }
    double f = fanout == null ? CausalPair.DEFAULT_FANOUT : fanout;
    return s.construct(() -> new CausalPair(in, target, out, f));
  }

}
