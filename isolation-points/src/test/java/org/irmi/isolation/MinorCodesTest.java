package org.irmi.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Keeps the one table of vendor minor codes whole: in the set, named, distinct and documented. */
class MinorCodesTest {

    private static List<Field> codes() {
        List<Field> codes = new ArrayList<>();
        for (Field f : MinorCodes.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class && !f.getName().equals("VMCID")) {
                codes.add(f);
            }
        }
        return codes;
    }

    @Test
    void shouldRecogniseAndNameEveryCodeWhenItIsInTheTable() throws Exception {
        Set<Integer> seen = new HashSet<>();
        assertThat(codes()).isNotEmpty();
        for (Field f : codes()) {
            int minor = f.getInt(null);
            assertThat(MinorCodes.isIrmi(minor)).as(f.getName()).isTrue();
            assertThat(MinorCodes.name(minor)).isEqualTo(f.getName());
            assertThat(seen.add(minor)).as("%s is unique", f.getName()).isTrue();
        }
    }

    @Test
    void shouldNotRecogniseCodesWhenTheyAreOutsideTheVendorSet() {
        assertThat(MinorCodes.isIrmi(0)).isFalse();
        assertThat(MinorCodes.isIrmi(0x49520001)).isFalse();
        assertThat(MinorCodes.isIrmi(0x4f4d0001)).isFalse(); // the OMG's own set
        assertThat(MinorCodes.name(7)).isEqualTo("0x7");
    }

    @Test
    void shouldListEveryCodeWhenDocsTableIsRead() throws Exception {
        String doc = Files.readString(Path.of("../docs/adaptation-modules.md"));
        for (Field f : codes()) {
            String row = String.format("| `0x%08x` | `%s` |", f.getInt(null), f.getName());
            assertThat(doc).as("docs/adaptation-modules.md lists %s", f.getName()).contains(row);
        }
        assertThat(doc).contains(String.format("`0x%08x`", MinorCodes.VMCID));
    }
}
