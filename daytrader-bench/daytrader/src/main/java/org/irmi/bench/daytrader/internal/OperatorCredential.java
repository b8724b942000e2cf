package org.irmi.bench.daytrader.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;

/**
 * The operator's credential of the DayTrader web tier: a 256-bit random token, kept as 64 hex
 * digits in a file only its owner can read (mode 0600), and sent as {@code Authorization: Bearer
 * TOKEN}. It admits the operator's pages ({@code poison}, {@code scenario}, {@code audit}, the
 * {@code summary} reset); a request carrying it needs no CSRF token, because no browser attaches an
 * {@code Authorization} header to a request a third-party page forges.
 *
 * <p>{@link #loadOrCreate} creates the file when it is missing (atomically: two processes never
 * hold different tokens for one file) and refuses a file that group or others can read, a symbolic
 * link, or content that is not a token, saying what to do. {@link #admits} compares in constant
 * time. Immutable and THREAD-SAFE.
 */
public final class OperatorCredential {
    /** The token's length in bytes: 256 bits. */
    public static final int TOKEN_BYTES = 32;
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final byte[] token;
    private final Path file;
    private final boolean created;

    private OperatorCredential(byte[] token, Path file, boolean created) {
        this.token = token;
        this.file = file;
        this.created = created;
    }

    /** A new random credential, not written anywhere (tests, and {@link #loadOrCreate}). */
    public static OperatorCredential random(SecureRandom random) {
        byte[] t = new byte[TOKEN_BYTES];
        random.nextBytes(t);
        return new OperatorCredential(t, null, false);
    }

    /**
     * Reads the token in {@code file}, or writes a new random one there (mode 0600) when the file
     * does not exist.
     *
     * @throws IOException when the file cannot be written, is readable by group or others, is a
     *                     symbolic link, or holds no token; the message says what to do
     */
    public static OperatorCredential loadOrCreate(Path file) throws IOException {
        if (Files.notExists(file, LinkOption.NOFOLLOW_LINKS)) {
            OperatorCredential fresh = random(new SecureRandom());
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.setPosixFilePermissions(file, OWNER_ONLY); // createFile's mode is narrowed by the umask, never widened
                Files.writeString(file, fresh.hex() + "\n", StandardOpenOption.TRUNCATE_EXISTING);
                return new OperatorCredential(fresh.token, file, true);
            } catch (FileAlreadyExistsException e) {
                // another process created it first: read its token below
            } catch (UnsupportedOperationException e) {
                throw new IOException("operator token file " + file + ": this file system has no POSIX permissions,"
                        + " so the token could not be kept private; put the file on a POSIX file system", e);
            }
        }
        if (Files.isSymbolicLink(file)) {
            throw new IOException("operator token file " + file + " is a symbolic link; give the real file's path");
        }
        Set<PosixFilePermission> mode;
        try {
            mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            throw new IOException("operator token file " + file + ": this file system has no POSIX permissions", e);
        }
        if (!OWNER_ONLY.containsAll(mode)) {
            throw new IOException("operator token file " + file + " has mode " + PosixFilePermissions.toString(mode)
                    + "; others could read the token. Run: chmod 600 " + file);
        }
        if (Files.size(file) > 256) {
            throw new IOException("operator token file " + file + " is " + Files.size(file) + " bytes; it should hold only the "
                    + (2 * TOKEN_BYTES) + " hex digits of a token. Delete it to have a new one made");
        }
        String text = Files.readString(file, StandardCharsets.US_ASCII).trim().toLowerCase(Locale.ROOT);
        if (!text.matches("[0-9a-f]{" + (2 * TOKEN_BYTES) + "}")) {
            throw new IOException("operator token file " + file + " does not hold a token of " + (2 * TOKEN_BYTES)
                    + " hex digits; delete it to have a new one made");
        }
        return new OperatorCredential(HexFormat.of().parseHex(text), file, false);
    }

    /** The file the token was read from or written to; null for {@link #random}. */
    public Path file() {
        return file;
    }

    /** True when {@link #loadOrCreate} wrote the file (so its maker may delete it when done), false when it read it. */
    public boolean created() {
        return created;
    }

    /** The token as 64 lower-case hex digits: what a client sends after {@code Bearer }. */
    public String hex() {
        return HexFormat.of().formatHex(token);
    }

    /**
     * True when {@code authorization} (an {@code Authorization} header's value, or null) is
     * {@code Bearer} and this token. The comparison of the token takes the same time wherever the
     * first difference is.
     */
    public boolean admits(String authorization) {
        String presented = bearer(authorization);
        if (presented == null || presented.length() != 2 * TOKEN_BYTES) {
            return false;
        }
        byte[] candidate = presented.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(candidate, hex().getBytes(StandardCharsets.US_ASCII));
    }

    /** The credential of {@code Bearer CREDENTIAL} (scheme case-insensitive), or null for another scheme or none. */
    static String bearer(String authorization) {
        if (authorization == null) {
            return null;
        }
        String a = authorization.trim();
        if (a.length() < 7 || !a.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return a.substring(7).trim();
    }

    /** Never the token: this object may reach a log. */
    @Override
    public String toString() {
        return "OperatorCredential[" + (file == null ? "in memory" : file) + "]";
    }
}
