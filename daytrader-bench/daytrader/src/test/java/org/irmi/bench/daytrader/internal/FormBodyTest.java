package org.irmi.bench.daytrader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The bounded form parser: each bound, at and just past its limit, and what it decodes. */
class FormBodyTest {
    private static final String FORM = "application/x-www-form-urlencoded";

    private static FormBody.Outcome parse(String contentType, String body) {
        return FormBody.parse(contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    private static FormBody.Parsed parsed(FormBody.Outcome o) {
        assertThat(o).isInstanceOf(FormBody.Parsed.class);
        return (FormBody.Parsed) o;
    }

    private static FormBody.Refusal refusal(FormBody.Outcome o) {
        assertThat(o).isInstanceOf(FormBody.Refused.class);
        return ((FormBody.Refused) o).reason();
    }

    @Test
    void shouldDecodeFieldsAsUtf8WhenTheBodyIsAForm() {
        FormBody.Parsed p = parsed(parse(FORM + "; charset=UTF-8", "uid=uid%3A7&fullname=Ren%C3%A9+Z&empty=&flag"));

        assertThat(p.fields()).containsExactly(java.util.Map.entry("uid", "uid:7"), java.util.Map.entry("fullname", "René Z"),
                java.util.Map.entry("empty", ""), java.util.Map.entry("flag", ""));
        assertThat(p.get("missing")).isNull();
    }

    @Test
    void shouldAcceptAnEmptyBodyWithoutAContentType() {
        assertThat(parsed(parse(null, "")).fields()).isEmpty();
    }

    @Test
    void shouldSkipEmptyPairsWhenAmpersandsRepeat() {
        assertThat(parsed(parse(FORM, "&a=1&&b=2&")).fields()).containsOnlyKeys("a", "b");
    }

    @Test
    void shouldAcceptExactlyEightKibWhenTheBodyIsAtTheLimit() {
        String body = "a=" + "x".repeat(FormBody.MAX_BODY_BYTES - 2);

        assertThat(parsed(parse(FORM, body)).get("a")).hasSize(FormBody.MAX_BODY_BYTES - 2);
    }

    @Test
    void shouldRefuseWith413WhenTheDeclaredLengthIsOverEightKib() throws Exception {
        CountingStream in = new CountingStream();

        FormBody.Outcome o = FormBody.read(FORM, FormBody.MAX_BODY_BYTES + 1, in);

        assertThat(refusal(o)).isEqualTo(FormBody.Refusal.TOO_LARGE);
        assertThat(((FormBody.Refused) o).status()).isEqualTo(413);
        assertThat(in.read).as("nothing read").isZero();
    }

    @Test
    void shouldReadAtMostOneByteMoreThanTheLimitWhenNoLengthIsDeclared() throws Exception {
        CountingStream in = new CountingStream();

        FormBody.Outcome o = FormBody.read(FORM, -1, in);

        assertThat(refusal(o)).isEqualTo(FormBody.Refusal.TOO_LARGE);
        assertThat(in.read).isEqualTo(FormBody.MAX_BODY_BYTES + 1);
    }

    @Test
    void shouldReadABodyWithinTheLimitWhenItsLengthIsDeclared() throws Exception {
        byte[] body = "a=1&b=2".getBytes(StandardCharsets.US_ASCII);

        assertThat(parsed(FormBody.read(FORM, body.length, new ByteArrayInputStream(body))).fields()).hasSize(2);
    }

    @Test
    void shouldAcceptSixtyFourFieldsAndRefuseSixtyFiveWith400() {
        StringBuilder b = new StringBuilder("f0=0");
        for (int i = 1; i < FormBody.MAX_FIELDS; i++) {
            b.append("&f").append(i).append('=').append(i);
        }

        assertThat(parsed(parse(FORM, b.toString())).fields()).hasSize(64);
        FormBody.Outcome o = parse(FORM, b + "&f64=64");
        assertThat(refusal(o)).isEqualTo(FormBody.Refusal.MALFORMED);
        assertThat(((FormBody.Refused) o).status()).isEqualTo(400);
    }

    @Test
    void shouldRefuseWith415WhenTheBodyIsNotAForm() {
        for (String type : new String[] {"application/json", "text/plain", "multipart/form-data; boundary=x", null,
                FORM + "; charset=ISO-8859-1"}) {
            FormBody.Outcome o = parse(type, "a=1");

            assertThat(refusal(o)).as(type).isEqualTo(FormBody.Refusal.WRONG_TYPE);
            assertThat(((FormBody.Refused) o).status()).isEqualTo(415);
        }
    }

    @Test
    void shouldRefuseWith400WhenAFieldIsGivenTwice() {
        assertThat(refusal(parse(FORM, "csrf=a&csrf=b"))).isEqualTo(FormBody.Refusal.MALFORMED);
    }

    @Test
    void shouldRefuseWith400WhenAnEscapeIsMalformedOrANameIsEmpty() {
        assertThat(refusal(parse(FORM, "a=%zz"))).isEqualTo(FormBody.Refusal.MALFORMED);
        assertThat(refusal(parse(FORM, "a=%4"))).isEqualTo(FormBody.Refusal.MALFORMED);
        assertThat(refusal(parse(FORM, "=1"))).isEqualTo(FormBody.Refusal.MALFORMED);
    }

    /** An endless body that counts the bytes read from it. */
    private static final class CountingStream extends InputStream {
        int read;

        @Override
        public int read() {
            read++;
            return 'a';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            java.util.Arrays.fill(b, off, off + len, (byte) 'a');
            read += len;
            return len;
        }
    }
}
