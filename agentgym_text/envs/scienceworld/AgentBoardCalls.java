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
 * simulator's own calls. Anything unusual (an error state, a pending "Ambiguous request", an object without a
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
        chooseUnique(visibleNames);  // the unread listing: its draws only
        chooseUnique(allNames);
        scala.collection.immutable.Map<Object, String> visibleLut = lookUpTable(visible, chooseUnique(visibleNames));
        scala.collection.immutable.Map<Object, String> allLut = lookUpTable(everything, chooseUnique(allNames));
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
     * The name each object gets, as {@code InputParser.chooseUniqueReferents} picks it: referents shared (in lower
     * case) with another object are dropped unless none is left; then 20 rounds in which every object whose name
     * is taken by another moves to its next referent (rounds 0-9) or to a random one (rounds 10-19).
     */
    private static String[] chooseUnique(String[][] names) {
        String[][] candidates = withoutShared(names);
        int[] chosen = new int[candidates.length];
        HashMap<String, Integer> uses = new HashMap<>();
        for (int round = 0; round < ATTEMPTS; round++) {
            uses.clear();
            for (int i = 0; i < candidates.length; i++) {
                uses.merge(candidates[i][chosen[i]], 1, Integer::sum);
            }
            for (int i = 0; i < candidates.length; i++) {
                if (uses.get(candidates[i][chosen[i]]) > 1) {
                    chosen[i] = round < INCREMENTING_ATTEMPTS
                        ? (chosen[i] + 1) % candidates[i].length
                        : scala.util.Random$.MODULE$.nextInt(candidates[i].length);
                }
            }
        }
        String[] out = new String[candidates.length];
        for (int i = 0; i < candidates.length; i++) {
            out[i] = candidates[i][chosen[i]];
        }
        return out;
    }

    private static String[][] withoutShared(String[][] names) {
        HashMap<String, Integer> uses = new HashMap<>();
        for (String[] referents : names) {
            for (String referent : referents) {
                uses.merge(referent.toLowerCase(), 1, Integer::sum);
            }
        }
        String[][] kept = new String[names.length][];
        for (int i = 0; i < names.length; i++) {
            List<String> own = new ArrayList<>();
            for (String referent : names[i]) {
                if (uses.get(referent.toLowerCase()) <= 1) {
                    own.add(referent);
                }
            }
            kept[i] = own.isEmpty() ? names[i] : own.toArray(new String[0]);
        }
        return kept;
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
