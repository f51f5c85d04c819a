// Hardhat artifacts (ABI and bytecode) of the Ocean contracts the sandbox
// deploys, from @oceanprotocol/contracts 2.6.0. None needs library linking.
import OceanToken from "@oceanprotocol/contracts/artifacts/contracts/utils/OceanToken.sol/OceanToken.json" with {
  type: "json",
};
import OPFCommunityFeeCollector from "@oceanprotocol/contracts/artifacts/contracts/communityFee/OPFCommunityFeeCollector.sol/OPFCommunityFeeCollector.json" with {
  type: "json",
};
import FactoryRouter from "@oceanprotocol/contracts/artifacts/contracts/pools/FactoryRouter.sol/FactoryRouter.json" with {
  type: "json",
};
import FixedRateExchange from "@oceanprotocol/contracts/artifacts/contracts/pools/fixedRate/FixedRateExchange.sol/FixedRateExchange.json" with {
  type: "json",
};
import Dispenser from "@oceanprotocol/contracts/artifacts/contracts/pools/dispenser/Dispenser.sol/Dispenser.json" with {
  type: "json",
};
import ERC20Template from "@oceanprotocol/contracts/artifacts/contracts/templates/ERC20Template.sol/ERC20Template.json" with {
  type: "json",
};
import ERC721Template from "@oceanprotocol/contracts/artifacts/contracts/templates/ERC721Template.sol/ERC721Template.json" with {
  type: "json",
};
import ERC721Factory from "@oceanprotocol/contracts/artifacts/contracts/ERC721Factory.sol/ERC721Factory.json" with {
  type: "json",
};
import Escrow from "@oceanprotocol/contracts/artifacts/contracts/escrow/Escrow.sol/Escrow.json" with {
  type: "json",
};
import type { Abi, Hex } from "viem";

/** The two parts of an artifact that deployment and calls need. */
export interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

function artifact(json: { abi: unknown; bytecode: string }): Artifact {
  return { abi: json.abi as Abi, bytecode: json.bytecode as Hex };
}

export const ARTIFACTS = {
  OceanToken: artifact(OceanToken),
  OPFCommunityFeeCollector: artifact(OPFCommunityFeeCollector),
  FactoryRouter: artifact(FactoryRouter),
  FixedRateExchange: artifact(FixedRateExchange),
  Dispenser: artifact(Dispenser),
  ERC20Template: artifact(ERC20Template),
  ERC721Template: artifact(ERC721Template),
  ERC721Factory: artifact(ERC721Factory),
  Escrow: artifact(Escrow),
} as const;
