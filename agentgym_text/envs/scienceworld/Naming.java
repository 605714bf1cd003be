package agentgymtext.scienceworld;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;

/**
 * The names {@code InputParser.chooseUniqueReferents} gives the objects. It keeps of each object's referents
 * those no other referent matches in lower case (all of them where none is left), then runs 20 rounds in
 * which every object whose name another object also has moves to its next referent (rounds 0-9) or to a random
 * one (rounds 10-19). An object with a referent of its own is therefore called by the first of those in every
 * round; only the others ("shared" here) can be renamed, and only they draw. They are numbered once, so a
 * round counts names in an array.
 */
final class Naming {
    private static final int ATTEMPTS = 20;
    private static final int INCREMENTING_ATTEMPTS = 10;

    private final String[][] referents;
    private final String[] settled;
    private final int[] shared;
    private final int[][] numbers;
    private final int distinct;

    Naming(String[][] referents) {
        this.referents = referents;
        int total = 0;
        for (String[] own : referents) {
            total += own.length;
        }
        HashMap<String, Integer> lowerNumbers = new HashMap<>(2 * total);
        int[][] lower = new int[referents.length][];
        int[] lowerUses = new int[total];
        for (int i = 0; i < referents.length; i++) {
            lower[i] = new int[referents[i].length];
            for (int k = 0; k < referents[i].length; k++) {
                lower[i][k] = number(lowerNumbers, referents[i][k].toLowerCase());
                lowerUses[lower[i][k]]++;
            }
        }
        settled = new String[referents.length];
        List<Integer> renamed = new ArrayList<>();
        for (int i = 0; i < referents.length; i++) {
            for (int k = 0; k < referents[i].length && settled[i] == null; k++) {
                if (lowerUses[lower[i][k]] == 1) {
                    settled[i] = referents[i][k];
                }
            }
            if (settled[i] == null) {
                renamed.add(i);
            }
        }
        shared = new int[renamed.size()];
        numbers = new int[shared.length][];
        HashMap<String, Integer> exactNumbers = new HashMap<>();
        for (int j = 0; j < shared.length; j++) {
            shared[j] = renamed.get(j);
            String[] own = referents[shared[j]];
            numbers[j] = new int[own.length];
            for (int k = 0; k < own.length; k++) {
                numbers[j][k] = number(exactNumbers, own[k]);
            }
        }
        distinct = exactNumbers.size();
    }

    private static int number(HashMap<String, Integer> numbered, String text) {
        Integer found = numbered.get(text);
        if (found != null) {
            return found;
        }
        numbered.put(text, numbered.size());
        return numbered.size() - 1;
    }

    /** One run of the rounds (each run draws from the simulator's generator as the simulator's would). */
    String[] choose() {
        int[] chosen = new int[shared.length];
        int[] uses = new int[distinct];
        for (int round = 0; round < ATTEMPTS; round++) {
            Arrays.fill(uses, 0);
            for (int j = 0; j < shared.length; j++) {
                uses[numbers[j][chosen[j]]]++;
            }
            for (int j = 0; j < shared.length; j++) {
                if (uses[numbers[j][chosen[j]]] > 1) {
                    int count = numbers[j].length;
                    chosen[j] = round < INCREMENTING_ATTEMPTS
                        ? (chosen[j] + 1) % count
                        : scala.util.Random$.MODULE$.nextInt(count);
                }
            }
        }
        String[] names = settled.clone();
        for (int j = 0; j < shared.length; j++) {
            names[shared[j]] = referents[shared[j]][chosen[j]];
        }
        return names;
    }
}
