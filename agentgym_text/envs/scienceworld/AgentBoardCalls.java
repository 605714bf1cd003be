package agentgymtext.scienceworld;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;

import scienceworld.actions.PossibleAction;
import scienceworld.input.ActionDefinitions;
import scienceworld.input.InputParser;
import scienceworld.runtime.AgentInterface;
import scienceworld.runtime.pythonapi.PythonInterface;
import scienceworld.struct.EnvObject;

/**
 * One AgentBoard step of ScienceWorld in one call: the calls scienceworld's Python {@code ScienceWorldEnv.step}
 * makes, then AgentBoard's validity listing ({@code getValidActionObjectCombinationsJSON}).
 *
 * <p>{@code step} lists the action-object combinations once, unread, and AgentBoard lists them again. The only
 * lasting effect of a listing is what its two {@code InputParser.chooseUniqueReferents} runs (the visible objects,
 * then every object) draw from the simulator's global {@code scala.util.Random}, which the world's bees and the
 * next listing's names also draw from. Between the two listings nothing changes but that generator, so the
 * objects and their referents are collected once, the unread listing is reduced to its draws, and the read
 * listing is built as the simulator builds it. The text and the generator's state end up as with the
 * simulator's own calls. Anything unusual (no world loaded, a pending "Ambiguous request", an object without a
 * referent) goes through the simulator's own calls instead.
 *
 * <p>Written for scienceworld 1.2.3 ({@code AgentInterface.getValidActionObjectCombinations[JSON]},
 * {@code InputParser.getAllUniqueReferentsObjList}); a new release needs this class checked against its source.
 */
public final class AgentBoardCalls {
    private static final int ATTEMPTS = 20;
    private static final int INCREMENTING_ATTEMPTS = 10;

    public AgentBoardCalls() {}

    /**
     * The step; returns score, completion, the observation's length in code points, each ending in a tab, then
     * the observation and the listing's JSON.
     */
    public String stepThenList(PythonInterface sim, String command) {
        String observation = sim.step(command);
        double score = sim.getScore();
        boolean completed = sim.getCompleted();
        sim.getNumMoves();
        sim.freeActionLook();
        sim.freeActionInventory();
        sim.freeActionTaskDesc();
        String listing = twoListings(sim);
        return score + "\t" + completed + "\t" + observation.codePointCount(0, observation.length()) + "\t"
            + observation + listing;
    }

    private static String twoListings(PythonInterface sim) {
        AgentInterface world = listable(sim);
        if (world == null) {
            sim.getValidActionObjectCombinations();
            return sim.getValidActionObjectCombinationsJSON();
        }
        EnvObject room = world.getAgentVisibleObjects(false)._2();
        EnvObject[] visible = asArray(InputParser.collectObjects(room, false));
        EnvObject[] everything = asArray(InputParser.collectObjects(world.universe(), true));
        String[][] visibleNames = referents(visible, room);
        String[][] allNames = referents(everything, room);
        if (visibleNames == null || allNames == null) {
            sim.getValidActionObjectCombinations();
            return sim.getValidActionObjectCombinationsJSON();
        }
        Naming visibleNaming = new Naming(visibleNames);
        Naming allNaming = new Naming(allNames);
        visibleNaming.choose();  // the unread listing: its draws only
        allNaming.choose();
        scala.collection.immutable.Map<Object, String> visibleLut = lookUpTable(visible, visibleNaming.choose());
        scala.collection.immutable.Map<Object, String> allLut = lookUpTable(everything, allNaming.choose());
        PossibleAction[] actions =
            ActionDefinitions.mkPossibleActions(world.agent(), visible, everything, visibleLut, allLut);
        StringBuilder json = new StringBuilder("{\"validActions\": [");
        for (int i = 0; i < actions.length; i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append(actions[i].toTemplate().toJSON());
        }
        return json.append("]}").toString();
    }

    /** The loaded world, or null where the simulator's own listing would take another branch. */
    private static AgentInterface listable(PythonInterface sim) {
        if (sim.agentInterface().isEmpty() || sim.agent().isEmpty()) {
            return null;
        }
        AgentInterface world = sim.agentInterface().get();
        if (world.inputParser().isInAmbiguousState() || world.agent().getContainer().isEmpty()) {
            return null;
        }
        return world;
    }

    @SuppressWarnings("unchecked")
    private static EnvObject[] asArray(scala.collection.mutable.Set<EnvObject> objects) {
        // the set's own toArray, so the order is the simulator's
        scala.reflect.ClassTag<Object> tag = (scala.reflect.ClassTag<Object>) (Object)
            scala.reflect.ClassTag$.MODULE$.apply(EnvObject.class);
        return (EnvObject[]) objects.toArray(tag);
    }

    /** Each object's referents seen from {@code room}, sorted; null when one has none. */
    private static String[][] referents(EnvObject[] objects, EnvObject room) {
        String[][] names = new String[objects.length][];
        for (int i = 0; i < objects.length; i++) {
            scala.collection.immutable.Set<String> set = objects[i].getReferentsWithContainers(room);
            String[] sorted = new String[set.size()];
            scala.collection.Iterator<String> each = set.iterator();
            for (int k = 0; each.hasNext(); k++) {
                sorted[k] = each.next();
            }
            if (sorted.length == 0) {
                return null;
            }
            Arrays.sort(sorted);
            names[i] = sorted;
        }
        return names;
    }

    /**
     * The names {@code InputParser.chooseUniqueReferents} gives the objects. It keeps of each object's referents
     * those no other referent matches in lower case (all of them where none is left), then runs 20 rounds in
     * which every object whose name another object also has moves to its next referent (rounds 0-9) or to a random
     * one (rounds 10-19). An object with a referent of its own is therefore called by the first of those in every
     * round; only the others ("shared" here) can be renamed, and only they draw. They are numbered once, so a
     * round counts names in an array.
     */
    private static final class Naming {
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

    /** Object id to lower-case name, written in name order as {@code getAllUniqueReferentsLUTObjList} does. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static scala.collection.immutable.Map<Object, String> lookUpTable(EnvObject[] objects, String[] names) {
        Integer[] order = new Integer[objects.length];
        String[] lower = new String[objects.length];
        for (int i = 0; i < objects.length; i++) {
            order[i] = i;
            lower[i] = names[i].toLowerCase();
        }
        Arrays.sort(order, Comparator.comparing(i -> lower[i]));  // stable, as Scala's sortBy
        scala.collection.immutable.Map table = scala.collection.immutable.Map$.MODULE$.empty();
        for (Integer i : order) {
            table = table.updated(Long.valueOf(objects[i].uuid()), lower[i]);
        }
        return (scala.collection.immutable.Map<Object, String>) table;
    }
}
