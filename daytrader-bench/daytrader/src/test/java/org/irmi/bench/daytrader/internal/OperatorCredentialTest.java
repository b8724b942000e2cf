package org.irmi.bench.daytrader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's token: made private, read back, refused when exposed, compared exactly. */
class OperatorCredentialTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteA256BitTokenReadableOnlyByItsOwnerWhenTheFileIsMissing() throws Exception {
        Path file = dir.resolve("operator.token");

        OperatorCredential c = OperatorCredential.loadOrCreate(file);

        assertThat(c.hex()).matches("[0-9a-f]{64}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file).trim()).isEqualTo(c.hex());
        assertThat(c.file()).isEqualTo(file);
        assertThat(c.created()).isTrue();
    }

    @Test
    void shouldReadTheSameTokenBackWhenTheFileExists() throws Exception {
        Path file = dir.resolve("operator.token");
        String first = OperatorCredential.loadOrCreate(file).hex();

        OperatorCredential again = OperatorCredential.loadOrCreate(file);

        assertThat(again.hex()).isEqualTo(first);
        assertThat(again.created()).isFalse();
    }

    @Test
    void shouldDrawADifferentTokenEachTime() throws Exception {
        assertThat(OperatorCredential.loadOrCreate(dir.resolve("a")).hex())
                .isNotEqualTo(OperatorCredential.loadOrCreate(dir.resolve("b")).hex());
    }

    @Test
    void shouldRefuseAFileOthersCanReadAndSayHowToFixIt() throws Exception {
        Path file = dir.resolve("operator.token");
        OperatorCredential.loadOrCreate(file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> OperatorCredential.loadOrCreate(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("rw-r--r--").hasMessageContaining("chmod 600 " + file);
    }

    @Test
    void shouldRefuseASymbolicLink() throws Exception {
        Path real = dir.resolve("real");
        OperatorCredential.loadOrCreate(real);
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);

        assertThatThrownBy(() -> OperatorCredential.loadOrCreate(link)).hasMessageContaining("symbolic link");
    }

    @Test
    void shouldRefuseAFileThatHoldsNoToken() throws Exception {
        Path file = Files.createFile(dir.resolve("bad"), PosixFilePermissions.asFileAttribute(OperatorCredential.OWNER_ONLY));
        Files.writeString(file, "password123\n");

        assertThatThrownBy(() -> OperatorCredential.loadOrCreate(file)).hasMessageContaining("64 hex digits");
    }

    @Test
    void shouldAdmitOnlyBearerAndTheExactToken() {
        OperatorCredential c = OperatorCredential.random(new SecureRandom());
        String t = c.hex();
        String flipped = (t.charAt(63) == '0' ? "1" : "0");

        assertThat(c.admits("Bearer " + t)).isTrue();
        assertThat(c.admits("bearer  " + t.toUpperCase() + " ")).as("scheme and hex case-insensitive").isTrue();
        assertThat(c.admits("Bearer " + t.substring(0, 63) + flipped)).isFalse();
        assertThat(c.admits("Bearer " + t.substring(0, 63))).isFalse();
        assertThat(c.admits("Bearer " + t + "0")).isFalse();
        assertThat(c.admits("Basic " + t)).isFalse();
        assertThat(c.admits(t)).isFalse();
        assertThat(c.admits("Bearer ")).isFalse();
        assertThat(c.admits(null)).isFalse();
    }

    @Test
    void shouldNeverShowTheTokenWhenPrinted() throws Exception {
        OperatorCredential c = OperatorCredential.loadOrCreate(dir.resolve("operator.token"));

        assertThat(c.toString()).doesNotContain(c.hex()).contains("operator.token");
    }
}
