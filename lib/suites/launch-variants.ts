// The launch forms of a suite: its declared variants, or one form of its launch fields and presets.
import type { AnySuite, LaunchVariant } from "./types";

export function launchVariantsOf(suite: AnySuite): readonly LaunchVariant[] {
  if (suite.launchVariants?.length) return suite.launchVariants;
  const presets = suite.presets as LaunchVariant["presets"];
  return [
    {
      id: "run",
      label: `${suite.name} run`,
      button: `${suite.name} run`,
      fields: suite.launchFields,
      presets,
      defaultPreset: "smoke" in presets ? "smoke" : Object.keys(presets)[0],
    },
  ];
}

/** The variant a form names (its first when none is named); null for an unknown name. */
export function launchVariant(suite: AnySuite, id: string | null | undefined): LaunchVariant | null {
  const all = launchVariantsOf(suite);
  return id ? (all.find((v) => v.id === id) ?? null) : all[0];
}
