package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hot reload, driven by explicit polls; one test uses the real file-system watch with a bounded wait. */
class SlaWatcherTest {

  private static final String V1 = "service: orders\nisolationPoints:\n  poison:\n    coolDown: 30s\n";
  private static final String V2 = "service: orders\nisolationPoints:\n  poison:\n    coolDown: 90s\n";
  private static final String BROKEN = "service: orders\nisolationPoints:\n  poison:\n    coolDown: 90\n";

  @TempDir
  Path dir;

  private Path write(String text) throws IOException {
    Path file = dir.resolve("orders.yaml");
    Path tmp = dir.resolve("orders.yaml.tmp");
    Files.writeString(tmp, text);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return file;
  }

  private static long coolDownSeconds(Sla sla) {
    return sla.isolationPoints().poison().orElseThrow().coolDown().toSeconds();
  }

  @Test
  void shouldReportUnchangedWhenFileIsUntouched() throws IOException {
    try (SlaWatcher w = SlaWatcher.open(write(V1))) {
      ReloadResult r = w.poll();

      assertThat(r.outcome()).isEqualTo(ReloadResult.Outcome.UNCHANGED);
      assertThat(coolDownSeconds(w.current())).isEqualTo(30);
    }
  }

  @Test
  void shouldSwapInNewSlaAndTellListenersWhenChangedFileIsValid() throws IOException {
    try (SlaWatcher w = SlaWatcher.open(write(V1))) {
      List<Sla[]> applied = new ArrayList<>();
      w.addListener((previous, current) -> applied.add(new Sla[] {previous, current}));
      write(V2);

      ReloadResult r = w.poll();

      assertThat(r.outcome()).isEqualTo(ReloadResult.Outcome.APPLIED);
      assertThat(coolDownSeconds(w.current())).isEqualTo(90);
      assertThat(applied).hasSize(1);
      assertThat(coolDownSeconds(applied.get(0)[0])).isEqualTo(30);
      assertThat(applied.get(0)[1]).isSameAs(w.current());
    }
  }

  @Test
  void shouldKeepOldSlaAndGivePositionedErrorsWhenChangedFileIsInvalid() throws IOException {
    try (SlaWatcher w = SlaWatcher.open(write(V1))) {
      Sla before = w.current();
      List<SlaException> refused = new ArrayList<>();
      w.addListener(new SlaListener() {
        @Override
        public void onApplied(Sla previous, Sla current) {
          throw new AssertionError("must not apply a broken file");
        }

        @Override
        public void onRejected(Sla inForce, SlaException why) {
          refused.add(why);
        }
      });
      write(BROKEN);

      ReloadResult r = w.poll();

      assertThat(r.outcome()).isEqualTo(ReloadResult.Outcome.REJECTED);
      assertThat(w.current()).isSameAs(before);
      assertThat(r.errors()).extracting(SlaError::toString).containsExactly(
          "orders.yaml:4:15: isolationPoints.poison.coolDown: '90' has no unit; write a duration such as 90ms or 90s"
              + " (units: ns, us, ms, s, m, h)");
      assertThat(refused).hasSize(1);
    }
  }

  @Test
  void shouldApplyFixedFileWhenItFollowsARefusedOne() throws IOException {
    try (SlaWatcher w = SlaWatcher.open(write(V1))) {
      write(BROKEN);
      w.poll();
      write(V2);

      ReloadResult r = w.poll();

      assertThat(r.outcome()).isEqualTo(ReloadResult.Outcome.APPLIED);
      assertThat(coolDownSeconds(w.current())).isEqualTo(90);
    }
  }

  @Test
  void shouldKeepOldSlaAndReportOnceWhenFileIsDeleted() throws IOException {
    Path file = write(V1);
    try (SlaWatcher w = SlaWatcher.open(file)) {
      Files.delete(file);

      ReloadResult first = w.poll();
      ReloadResult second = w.poll();

      assertThat(first.outcome()).isEqualTo(ReloadResult.Outcome.REJECTED);
      assertThat(first.errors().get(0).message()).startsWith("file not found");
      assertThat(second.outcome()).isEqualTo(ReloadResult.Outcome.UNCHANGED);
      assertThat(coolDownSeconds(w.current())).isEqualTo(30);
    }
  }

  @Test
  void shouldNotNotifyWhenOnlyCommentsChange() throws IOException {
    try (SlaWatcher w = SlaWatcher.open(write(V1))) {
      List<Sla> applied = new ArrayList<>();
      w.addListener((previous, current) -> applied.add(current));
      write("# reviewed\n" + V1);

      ReloadResult r = w.poll();

      assertThat(r.outcome()).isEqualTo(ReloadResult.Outcome.UNCHANGED);
      assertThat(applied).isEmpty();
    }
  }

  @Test
  void shouldKeepNotifyingOtherListenersWhenOneThrows() throws IOException {
    try (SlaWatcher w = SlaWatcher.open(write(V1))) {
      List<Sla> applied = new ArrayList<>();
      w.addListener((previous, current) -> {
        throw new IllegalStateException("listener bug");
      });
      w.addListener((previous, current) -> applied.add(current));
      write(V2);

      w.poll();

      assertThat(applied).hasSize(1);
    }
  }

  @Test
  void shouldRefuseToStartWhenInitialFileIsInvalid() throws IOException {
    Path file = write(BROKEN);

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SlaWatcher.open(file))
        .isInstanceOf(SlaException.class)
        .hasMessageStartingWith("orders.yaml:4:15:");
  }

  @Test
  void shouldOnlyEverShowWholeSlasToReadersWhenReloadsRunConcurrently() throws Exception {
    try (SlaWatcher w = SlaWatcher.open(write(V1))) {
      java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.atomic.AtomicReference<String> bad = new java.util.concurrent.atomic.AtomicReference<>();
      java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
      Thread reader = new Thread(() -> {
        while (!done.get()) {
          long s = coolDownSeconds(w.current());
          if (s != 30 && s != 90) {
            bad.set("saw coolDown " + s);
          }
          reads.incrementAndGet();
        }
      });
      reader.start();
      int applied = 0;
      for (int i = 0; i < 100; i++) {
        write(i % 3 == 2 ? BROKEN : (i % 2 == 0 ? V2 : V1));
        if (w.poll().outcome() == ReloadResult.Outcome.APPLIED) {
          applied++;
        }
      }
      done.set(true);
      reader.join(10_000);

      assertThat(bad.get()).isNull();
      assertThat(applied).isPositive();
      assertThat(reads.get()).isPositive();
    }
  }

  @Test
  void shouldReloadThroughTheFileSystemWatchWhenFileIsReplaced() throws Exception {
    try (SlaWatcher w = SlaWatcher.watch(write(V1))) {
      CountDownLatch applied = new CountDownLatch(1);
      w.addListener((previous, current) -> applied.countDown());

      write(V2);

      // Bounded wait for the real inotify event; the only timed test of this module.
      assertThat(applied.await(10, TimeUnit.SECONDS)).as("reload within 10 s").isTrue();
      assertThat(coolDownSeconds(w.current())).isEqualTo(90);
    }
  }

  @Test
  void shouldRefuseAFileLargerThanOneMebibyteWithoutReadingItWhole() throws IOException {
    try (SlaWatcher w = SlaWatcher.open(write(V1))) {
      write(V2 + "# " + "x".repeat(2 * 1024 * 1024) + "\n");

      ReloadResult r = w.poll();

      assertThat(r.outcome()).isEqualTo(ReloadResult.Outcome.REJECTED);
      assertThat(r.errors()).singleElement().satisfies(e -> {
        assertThat(e.source()).isEqualTo("orders.yaml");
        assertThat(e.message()).contains("larger than 1 MiB");
      });
      assertThat(coolDownSeconds(w.current())).isEqualTo(30);
    }
  }

  @Test
  void shouldRefuseCollectionsNestedTooDeepWithTheLine() throws IOException {
    try (SlaWatcher w = SlaWatcher.open(write(V1))) {
      write("service: orders\n# a comment with [ [ [\nisolationPoints: " + "[".repeat(200_000) + "\n");

      ReloadResult r = w.poll();

      assertThat(r.outcome()).isEqualTo(ReloadResult.Outcome.REJECTED);
      assertThat(r.errors()).singleElement().satisfies(e -> {
        assertThat(e.source()).isEqualTo("orders.yaml");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.message()).contains("nested more than 64 deep");
      });
      assertThat(coolDownSeconds(w.current())).isEqualTo(30);
    }
  }

  /**
   * A Kubernetes ConfigMap volume: the file is a symlink through "..data" to a timestamped
   * directory, and an update renames a new "..data" symlink over the old one; the file's own
   * directory entry never changes.
   */
  @Test
  void shouldReloadWhenAConfigMapSwapsItsDataLink() throws Exception {
    Path v1Dir = Files.createDirectory(dir.resolve("..2026_11_23_21_00_00.1"));
    Files.writeString(v1Dir.resolve("orders.yaml"), V1);
    Files.createSymbolicLink(dir.resolve("..data"), v1Dir.getFileName());
    Path file = Files.createSymbolicLink(dir.resolve("orders.yaml"), Path.of("..data", "orders.yaml"));
    try (SlaWatcher w = SlaWatcher.watch(file)) {
      CountDownLatch applied = new CountDownLatch(1);
      w.addListener((previous, current) -> applied.countDown());
      Path v2Dir = Files.createDirectory(dir.resolve("..2026_11_23_21_05_00.2"));
      Files.writeString(v2Dir.resolve("orders.yaml"), V2);
      Path tmpLink = Files.createSymbolicLink(dir.resolve("..data_tmp"), v2Dir.getFileName());

      Files.move(tmpLink, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

      assertThat(applied.await(10, TimeUnit.SECONDS)).as("reload within 10 s").isTrue();
      assertThat(coolDownSeconds(w.current())).isEqualTo(90);
    }
  }

  @Test
  void shouldKeepWatchingAfterAListenerThrowsAnError() throws Exception {
    try (SlaWatcher w = SlaWatcher.watch(write(V1))) {
      CountDownLatch second = new CountDownLatch(2);
      w.addListener((previous, current) -> {
        second.countDown();
        if (second.getCount() == 1) {
          throw new StackOverflowError("listener blew its stack");
        }
      });
      write(V2);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (second.getCount() == 2 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }

      write(V1);

      assertThat(second.await(10, TimeUnit.SECONDS)).as("the watch thread applied a later change").isTrue();
      assertThat(coolDownSeconds(w.current())).isEqualTo(30);
    }
  }
}
